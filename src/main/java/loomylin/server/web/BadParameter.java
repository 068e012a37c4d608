package loomylin.server.web;

/** A query parameter a user got wrong; answered 400 with this one-line message. */
public final class BadParameter extends RuntimeException {
    public BadParameter(String message) {
        super(message, null, false, false);
    }
}
