package loomylin.server.web;

/**
 * A backend call of the three-hop chain failed: 502 for a backend that is down or answers badly, 504 for one
 * that is too slow, with a line naming the backend and the hop, because "502" alone tells a user nothing.
 */
public final class HopFailure extends OneLineFailure {
    public HopFailure(int status, String message) {
        super(status, message);
    }
}
