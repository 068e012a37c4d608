package loomylin.lab.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponseReaderTest {
    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void anAnswerFedOneByteAtATimeIsReadOnceWhole() throws IOException {
        String answer = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nxxxxx";
        ResponseReader reader = new ResponseReader();
        for (int round = 0; round < 2; round++) { // the reader starts over after each answer
            for (int i = 0; i < answer.length() - 1; i++) assertEquals(0, reader.feed(bytes(answer.substring(i, i + 1))));
            assertEquals(200, reader.feed(bytes(answer.substring(answer.length() - 1))));
        }
    }

    @Test
    void statusAndEmptyBody() throws IOException {
        assertEquals(404, new ResponseReader().feed(bytes("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")));
    }

    @Test
    void chunkedOrLengthlessOrNonHttpAnswersAreErrors() {
        assertThrows(IOException.class, () -> new ResponseReader().feed(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")));
        assertThrows(IOException.class, () -> new ResponseReader().feed(bytes("HTTP/1.1 200 OK\r\n\r\n")));
        assertThrows(IOException.class, () -> new ResponseReader().feed(bytes("SSH-2.0-OpenSSH\r\n\r\n")));
    }
}
