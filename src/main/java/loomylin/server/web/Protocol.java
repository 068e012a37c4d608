package loomylin.server.web;

import java.util.regex.Pattern;

/** The fixed words the servers, the backend and their clients exchange. */
public final class Protocol {
    private Protocol() {
    }

    /** The body of /computational and /wait-*. */
    public static final String HELLO = "Hello, World";
    /** The token /hops-* send to authenticate when the caller sent no {@code Authorization: Bearer}. */
    public static final String DEFAULT_TOKEN = "loomylin-demo-token";
    /** The authority authorize grants and meetings requires. */
    public static final String AUTHORITY = "meetings:read";
    /** The header that carries the authority to meetings. */
    public static final String AUTHORITY_HEADER = "X-Authority";

    private static final Pattern BEARER = Pattern.compile("(?i)^bearer\\s+");

    /** The token of an {@code Authorization: Bearer TOKEN} header (the scheme in any case); "" for no header or no token. */
    public static String bearerToken(String authorization) {
        return authorization == null ? "" : BEARER.matcher(authorization).replaceFirst("").trim();
    }
}
