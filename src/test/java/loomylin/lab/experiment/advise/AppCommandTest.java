package loomylin.lab.experiment.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code advise --app}'s command and URL as read before anything runs: the command split as a shell splits it
 * without one, the agent right after the java, every mistake one line; the URL loopback only; the Little's-law
 * pool's rule; which arguments send {@code advise} to it.
 */
class AppCommandTest {

    @Test
    void theCommandIsSplitAsAShellWouldWithoutOne() {
        assertEquals(List.of("java", "-jar", "app.jar"), AppCommand.split("  java   -jar\tapp.jar "));
        assertEquals(List.of("java", "-Dname=a b", "-jar", "my app.jar", "it's"), AppCommand.split("java '-Dname=a b' -jar my\\ app.jar \"it's\""));
        assertEquals(List.of("java", "say \"hi\"", "a\\b", ""), AppCommand.split("java \"say \\\"hi\\\"\" 'a\\b' ''"));
        assertEquals(List.of("java", "$HOME", "*.jar", "|", "x"), AppCommand.split("java $HOME *.jar | x"), "no variables, globs or pipes: words as they are");
    }

    @Test
    void theAgentGoesRightAfterTheJava() {
        AppCommand app = AppCommand.parse("java -Xmx1g -jar 'their app.jar' 8080");
        assertEquals(List.of("java", "-javaagent:/x/loomylin.jar=pool=qtp-vtp:8:200,admin=4567", "-Xmx1g", "-jar", "their app.jar", "8080"),
                app.underAgent(Path.of("/x/loomylin.jar"), "qtp-vtp:8:200", 4567));
        assertEquals("java -Xmx1g -jar 'their app.jar' 8080", app.text());
        assertEquals(List.of(ProcessHandle.current().info().command().orElseThrow(), "-jar", "a.jar"),
                AppCommand.parse(ProcessHandle.current().info().command().orElseThrow() + " -jar a.jar").words(), "a path to a java is a java");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "''| --app needs the command",
            "python app.py | --app must start with java or a path to a java",
            "sh -c java | --app must start with java or a path to a java",
            "/no/such/bin/java -jar a.jar | is not an executable file",
            "java | starts a java with nothing to run",
            "java -javaagent:target/loomylin.jar=pool=loom -jar a.jar | already runs Loomylin's agent"})
    void aBadCommandIsOneLine(String app, String message) {
        UsageError e = assertThrows(UsageError.class, () -> AppCommand.parse(app));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void anUnclosedQuoteIsOneLine() {
        assertTrue(assertThrows(UsageError.class, () -> AppCommand.parse("java -jar 'a.jar")).getMessage().contains("unclosed ' quote"));
        assertTrue(assertThrows(UsageError.class, () -> AppCommand.parse("java -jar \"a.jar")).getMessage().contains("unclosed \" quote"));
        assertTrue(assertThrows(UsageError.class, () -> AppCommand.parse("java -jar a.jar\\")).getMessage().contains("lone backslash"));
    }

    @Test
    void theUrlIsLoopbackHttpOnly() {
        AppUrl url = AppUrl.parse("http://localhost:8080/their/route?ms=20");
        assertEquals(8080, url.port());
        assertEquals("http://127.0.0.1:8080/their/route?ms=20", url.measured().toString(), "localhost is measured as 127.0.0.1");
        assertEquals(80, AppUrl.parse("http://127.0.0.1").port());
        assertEquals("http://127.0.0.1:80/", AppUrl.parse("http://127.0.0.1").measured().toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "http://example.com:8080/x | must be on this machine's loopback",
            "http://10.0.0.5:8080/x | must be on this machine's loopback",
            "https://localhost:8443/x | must be an http:// URL",
            "localhost:8080/x | must be an http:// URL",
            "http://localhost:8080/x#top | has a user or a #fragment",
            "http://local host/ | is not a URL"})
    void aBadUrlIsOneLine(String url, String message) {
        UsageError e = assertThrows(UsageError.class, () -> AppUrl.parse(url));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void aTakenPortIsSeen() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertTrue(AppUrl.parse("http://127.0.0.1:" + taken.getLocalPort() + "/").portTaken());
        }
        int free;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            free = s.getLocalPort();
        }
        assertFalse(AppUrl.parse("http://127.0.0.1:" + free + "/").portTaken());
    }

    @Test
    void littlesLawSizesThePoolWithHeadroomAndTheConnectorsThreads() {
        // 200 req/s of 50 ms: 10 in flight, 12.5 with headroom, 13 request threads; 2 cores: an acceptor and a selector.
        assertEquals(PoolKind.qtp(15), AppAdvise.littlePool(200, 50, 2));
        // 8 cores: an acceptor and 4 selectors.
        assertEquals(PoolKind.qtp(18), AppAdvise.littlePool(200, 50, 8));
        // Little work in flight: one request thread per core, and never under QueuedThreadPool's 8.
        assertEquals(PoolKind.qtp(8), AppAdvise.littlePool(10, 5, 2));
        assertEquals(PoolKind.qtp(PoolKind.MAX_SIZE), AppAdvise.littlePool(20_000, 10_000, 2));
    }

    @Test
    void appUrlOrRerenderSendAdviseHere() {
        assertTrue(AppAdvise.asks(new String[]{"--app", "java -jar a.jar"}));
        assertTrue(AppAdvise.asks(new String[]{"--url=http://localhost:1/"}));
        assertTrue(AppAdvise.asks(new String[]{"--rerender", "--out", "x"}));
        assertFalse(AppAdvise.asks(new String[]{"--cpu-ms", "2", "--wait-ms", "40", "--rate", "300", "--threads", "200"}));
        assertFalse(AppAdvise.asks(new String[]{"--apple", "x"}));
    }
}
