package loomylin.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON this project speaks: the backend's three answers and the /pool figures. Small enough to
 * read in one sitting, so no JSON library is added for it. The reader is strict: anything that is not one
 * complete JSON value is {@link Malformed}, which the hop client reports as a bad backend answer.
 */
public final class Json {
    private Json() {
    }

    public static final class Malformed extends RuntimeException {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    /** Writes maps, lists, strings, numbers, booleans and null. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            String sep = "";
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append(sep);
                quote(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out);
                sep = ",";
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            String sep = "";
            for (Object item : list) {
                out.append(sep);
                write(item, out);
                sep = ",";
            }
            out.append(']');
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else {
            quote(value.toString(), out);
        }
    }

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }

    /** Parses one JSON value: objects become LinkedHashMaps, arrays Lists, numbers Doubles or Longs. */
    public static Object parse(String text) {
        Reader r = new Reader(text);
        r.space();
        Object value = r.value();
        r.space();
        if (r.pos != text.length()) throw r.fail("trailing characters");
        return value;
    }

    /** The string field {@code name} of a JSON object, or Malformed when the text is no object or lacks it. */
    public static String stringField(String text, String name) {
        if (!(parse(text) instanceof Map<?, ?> map)) throw new Malformed("expected a JSON object");
        if (!(map.get(name) instanceof String s) || s.isEmpty()) throw new Malformed("no string field '" + name + "'");
        return s;
    }

    private static final class Reader {
        final String s;
        int pos;
        int depth;

        Reader(String s) {
            this.s = s;
        }

        Malformed fail(String what) {
            return new Malformed(what + " at character " + pos);
        }

        void space() {
            while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) pos++;
        }

        char peek() {
            if (pos >= s.length()) throw fail("unexpected end");
            return s.charAt(pos);
        }

        void expect(char c) {
            if (peek() != c) throw fail("expected '" + c + "'");
            pos++;
        }

        Object value() {
            if (++depth > 64) throw fail("nested too deep");
            try {
                char c = peek();
                if (c == '{') return object();
                if (c == '[') return array();
                if (c == '"') return string();
                if (c == '-' || (c >= '0' && c <= '9')) return number();
                if (s.startsWith("true", pos)) { pos += 4; return Boolean.TRUE; }
                if (s.startsWith("false", pos)) { pos += 5; return Boolean.FALSE; }
                if (s.startsWith("null", pos)) { pos += 4; return null; }
                throw fail("unexpected '" + c + "'");
            } finally {
                depth--;
            }
        }

        Map<String, Object> object() {
            Map<String, Object> map = new LinkedHashMap<>();
            expect('{');
            space();
            if (peek() == '}') { pos++; return map; }
            while (true) {
                space();
                String key = string();
                space();
                expect(':');
                space();
                map.put(key, value());
                space();
                if (peek() == ',') { pos++; continue; }
                expect('}');
                return map;
            }
        }

        List<Object> array() {
            List<Object> list = new ArrayList<>();
            expect('[');
            space();
            if (peek() == ']') { pos++; return list; }
            while (true) {
                space();
                list.add(value());
                space();
                if (peek() == ',') { pos++; continue; }
                expect(']');
                return list;
            }
        }

        String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = peek();
                pos++;
                if (c == '"') return out.toString();
                if (c < 0x20) throw fail("control character in string");
                if (c != '\\') { out.append(c); continue; }
                char e = peek();
                pos++;
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        if (pos + 4 > s.length()) throw fail("short \\u escape");
                        try {
                            out.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException x) {
                            throw fail("bad \\u escape");
                        }
                        pos += 4;
                    }
                    default -> throw fail("bad escape");
                }
            }
        }

        Object number() {
            int start = pos;
            if (peek() == '-') pos++;
            while (pos < s.length() && "0123456789.eE+-".indexOf(s.charAt(pos)) >= 0) pos++;
            String n = s.substring(start, pos);
            try {
                return n.matches("-?\\d{1,18}") ? (Object) Long.parseLong(n) : (Object) Double.parseDouble(n);
            } catch (NumberFormatException x) {
                throw fail("bad number '" + n + "'");
            }
        }
    }
}
