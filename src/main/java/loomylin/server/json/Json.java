package loomylin.server.json;

import io.javalin.json.JavalinJackson3;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapper Loomylin uses (Jackson 3): every server answers through it ({@link #javalin()} behind
 * {@code ctx.json}), and every JSON document Loomylin reads (the backend's answers, a server's /pool, oha's
 * output) is parsed by it. Reading is strict: the text must be exactly one JSON value (no trailing tokens);
 * Jackson's defaults already refuse leading zeros, {@code 1.}, bare NaN and comments. Writing never produces
 * a bare NaN or Infinity: Jackson writes them as strings. Its errors are unchecked
 * ({@link tools.jackson.core.JacksonException}).
 */
public final class Json {
    private Json() {
    }

    public static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** Javalin's JSON mapper over {@link #MAPPER}: what {@code ctx.json(...)} writes with. */
    public static JavalinJackson3 javalin() {
        return new JavalinJackson3(MAPPER, false);
    }

    /** Records, maps, lists, strings, numbers, booleans and null as compact JSON. */
    public static String write(Object value) {
        return MAPPER.writeValueAsString(value);
    }

    /** One JSON value: objects become Maps, arrays Lists, numbers Integer, Long, BigInteger or Double. */
    public static Object parse(String text) {
        return MAPPER.readValue(text, Object.class);
    }

    /** One JSON value as Jackson's tree. */
    public static JsonNode tree(String text) {
        return MAPPER.readTree(text);
    }
}
