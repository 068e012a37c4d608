package loomylin.lab.clients;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads HTTP/1.1 answers off a byte stream, fed as the bytes arrive: the head up to the empty line, then
 * Content-Length bytes of body, which are skipped. One per connection; both the blocking and the NIO clients use it.
 */
final class ResponseReader {
    private static final int HEAD_MAX = 8 * 1024;

    private final byte[] head = new byte[HEAD_MAX];
    private int headLength;
    /** Body bytes still to skip, or -1 while reading the head. */
    private long bodyLeft = -1;
    private int status;

    /** Consumes bytes; returns the status code once a whole answer is in, else 0. */
    int feed(ByteBuffer in) throws IOException {
        while (in.hasRemaining()) {
            if (bodyLeft < 0) {
                if (headLength == HEAD_MAX) throw new IOException("answer head longer than " + HEAD_MAX + " bytes");
                head[headLength++] = in.get();
                if (headEnded()) readHead();
            } else {
                int skip = (int) Math.min(bodyLeft, in.remaining());
                in.position(in.position() + skip);
                bodyLeft -= skip;
            }
            if (bodyLeft == 0) {
                bodyLeft = -1;
                headLength = 0;
                return status;
            }
        }
        return 0;
    }

    private boolean headEnded() {
        return headLength >= 4 && head[headLength - 4] == '\r' && head[headLength - 3] == '\n'
                && head[headLength - 2] == '\r' && head[headLength - 1] == '\n';
    }

    private void readHead() throws IOException {
        String[] lines = new String(head, 0, headLength - 4, StandardCharsets.ISO_8859_1).split("\r\n");
        if (!lines[0].startsWith("HTTP/1.") || lines[0].length() < 12)
            throw new IOException("not an HTTP/1.x answer: " + lines[0]);
        status = Integer.parseInt(lines[0].substring(9, 12));
        long length = -1;
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i].toLowerCase(Locale.ROOT);
            if (line.startsWith("content-length:")) length = Long.parseLong(line.substring(15).trim());
            if (line.startsWith("transfer-encoding:")) throw new IOException("chunked answers are not read; the target must send Content-Length");
        }
        if (length < 0) throw new IOException("answer without Content-Length");
        bodyLeft = length;
    }
}
