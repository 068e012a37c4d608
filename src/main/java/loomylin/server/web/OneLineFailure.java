package loomylin.server.web;

/**
 * A request failed for a reason its caller should hear: the HTTP status to answer and one line of plain text
 * that names what failed ({@link ErrorAnswers} writes both), never a stack trace.
 */
public class OneLineFailure extends RuntimeException {
    public final int status;

    public OneLineFailure(int status, String message) {
        super(message, null, false, false); // no stack trace: this is a report, not a bug
        this.status = status;
    }
}
