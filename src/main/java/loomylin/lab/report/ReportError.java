package loomylin.lab.report;

/** A page that cannot be rendered: a marker without its end, an unknown section, a result file missing. */
final class ReportError extends RuntimeException {
    ReportError(String message) {
        super(message);
    }
}
