package loomylin.web;

/**
 * A backend call of the three-hop chain failed. Carries the HTTP status the frontend answers with
 * (502 for a backend that is down or answers badly, 504 for one that is too slow) and a one-line message
 * naming the backend and the hop, because "502" alone tells a user nothing.
 */
public final class HopFailure extends RuntimeException {
    public final int status;

    public HopFailure(int status, String message) {
        super(message, null, false, false); // no stack trace: this is a report, not a bug
        this.status = status;
    }
}
