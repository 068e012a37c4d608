package loomylin.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The bearer token, read one way by the servers' /hops-* and by the backend's authenticate. */
class ProtocolTest {

    @Test
    void theTokenFollowsTheSchemeInAnyCase() {
        assertEquals("abc", Protocol.bearerToken("Bearer abc"));
        assertEquals("abc", Protocol.bearerToken("bearer   abc "));
        assertEquals("abc", Protocol.bearerToken("BEARER\tabc"));
    }

    @Test
    void noHeaderOrNoTokenIsEmpty() {
        assertEquals("", Protocol.bearerToken(null));
        assertEquals("", Protocol.bearerToken("Bearer "));
        assertEquals("", Protocol.bearerToken(""));
    }

    @Test
    void anotherSchemeIsKeptWhole() {
        assertEquals("Basic dXNlcg==", Protocol.bearerToken("Basic dXNlcg=="));
    }
}
