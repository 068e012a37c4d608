package loomylin.lab.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** How rendered numbers read: thousands separated, as few decimals as the figure needs. */
final class Fmt {
    private Fmt() {
    }

    /** A rate or a count: "12,322", "485", "18.5". */
    static String rate(double v) {
        if (Math.abs(v) >= 100) return String.format(Locale.ROOT, "%,.0f", v);
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** A whole count: "27", "2,522". */
    static String count(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    /** Milliseconds of latency: "6,640", "109", "9.5". */
    static String ms(double v) {
        return rate(v);
    }

    /** CPU milliseconds per request, three significant digits: "1.65", "0.52", "0.118". */
    static String cpu(double v) {
        if (v >= 100) return rate(v);
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** A ratio: three decimals close to 1, else two ("0.999", "1.76", "12.80" as "12.8"). */
    static String ratio(double v) {
        return ratio(v, v);
    }

    /** A ratio written with the decimals its median needs, so that a median and its range read alike. */
    static String ratio(double v, double median) {
        if (Math.abs(median - 1) < 0.01) return String.format(Locale.ROOT, "%.3f", v);
        if (median >= 10) return String.format(Locale.ROOT, "%.1f", v);
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** Megabytes from kilobytes. */
    static String mb(double kb) {
        double mb = kb / 1024;
        return mb >= 100 ? String.format(Locale.ROOT, "%,.0f", mb) : String.format(Locale.ROOT, "%.1f", mb);
    }

    static String ratioRange(Stats s) {
        return ratio(s.median()) + "x" + (s.single() ? "" : " (" + ratio(s.min(), s.median()) + "-" + ratio(s.max(), s.median()) + ")");
    }

    static String rateRange(Stats s) {
        return rate(s.median()) + (s.single() ? "" : " (" + rate(s.min()) + "-" + rate(s.max()) + ")");
    }
}
