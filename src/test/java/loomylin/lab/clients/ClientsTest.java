package loomylin.lab.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import loomylin.server.backend.Backend;
import loomylin.server.cli.StartupFailure;
import loomylin.server.proc.ProcLimits;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Ports;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each client model against the real backend's /echo at a few hundred connections; refusing and silent targets. */
class ClientsTest {
    static Backend backend;

    @BeforeAll
    static void start() {
        backend = Backend.start("127.0.0.1", 0, 0, Backend.Fault.NONE);
    }

    @AfterAll
    static void stop() {
        backend.close();
    }

    private static Target echo(int delayMs) {
        return Target.parse("http://127.0.0.1:" + backend.port() + "/echo?delay=" + delayMs + "&bytes=32");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "threads", "virtual"})
    void everyConnectionCompletesItsRequestsAndNoneIsLost(String model) throws Exception {
        Map<String, Object> r = ClientsCommand.run(model, 300, 1, 30, echo(200), List.of());
        assertEquals(0L, r.get("failed"), r.toString());
        assertEquals(0, r.get("lost"), r.toString());
        assertEquals(0L, r.get("unfinished"), r.toString());
        // every connection sent at least one request, and each request in flight at the end was let finish
        assertTrue((Long) r.get("completed") >= 300, r.toString());
    }

    @Test
    void connectionsAreBoundToTheSourceAddressesInTurn() throws Exception {
        List<InetAddress> sources = SourceAddresses.parse("127.0.0.2-127.0.0.4");
        List<SocketChannel> channels = Connections.open(echo(0), 9, sources);
        try {
            Set<String> used = new java.util.TreeSet<>();
            for (SocketChannel c : channels) used.add(((InetSocketAddress) c.getLocalAddress()).getAddress().getHostAddress());
            assertEquals(Set.of("127.0.0.2", "127.0.0.3", "127.0.0.4"), used);
        } finally {
            Connections.closeAll(channels);
        }
        Map<String, Object> r = ClientsCommand.run("virtual", 90, 1, 30, echo(100), sources);
        assertEquals(0, r.get("lost"), r.toString());
    }

    @Test
    void aRefusingTargetIsOneLineWithTheCountThatOpened() throws Exception {
        int port = Ports.free();
        StartupFailure e = assertThrows(StartupFailure.class,
                () -> ClientsCommand.run("nio", 50, 1, 1, Target.parse("http://127.0.0.1:" + port + "/echo"), List.of()));
        assertTrue(e.getMessage().startsWith("opened 0 of 50 connections to http://127.0.0.1:" + port), e.getMessage());
    }

    @Test
    void aTargetThatStopsAcceptingIsReportedWithTheCountThatSucceeded() throws Exception {
        // accepts 20 connections, then closes its listening socket: the 21st connect is refused
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new CopyOnWriteArrayList<>();
            Thread acceptor = Thread.ofVirtual().start(() -> {
                try {
                    while (accepted.size() < 20) accepted.add(server.accept());
                    server.close();
                } catch (IOException ignored) {
                    // closed
                }
            });
            Target target = Target.parse("http://127.0.0.1:" + server.getLocalPort() + "/echo");
            StartupFailure e = assertThrows(StartupFailure.class, () -> {
                ClientsCommand.run("threads", 100, 1, 1, target, List.of());
            });
            acceptor.join(Duration.ofSeconds(10));
            assertTrue(e.getMessage().matches("opened (\\d+) of 100 connections to .*"), e.getMessage());
            int opened = Integer.parseInt(e.getMessage().split(" ")[1]);
            assertTrue(opened >= 20 && opened < 100, e.getMessage());
            for (Socket s : accepted) s.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "threads", "virtual"})
    void aTargetThatClosesEveryConnectionEndsTheRunWithAllLost(String model) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress())) {
            Thread closer = Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        Socket s = server.accept();
                        Thread.ofVirtual().start(() -> readThenClose(s));
                    }
                } catch (IOException ignored) {
                    // closed
                }
            });
            Map<String, Object> r = ClientsCommand.run(model, 50, 1, 10, Target.parse("http://127.0.0.1:" + server.getLocalPort() + "/"), List.of());
            assertEquals(50, r.get("lost"), r.toString());
            assertEquals(0L, r.get("completed"), r.toString());
            server.close();
            closer.join(Duration.ofSeconds(10));
        }
    }

    @IntegrationTest
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "threads", "virtual"})
    void aTargetThatNeverAnswersLeavesEveryConnectionUnfinishedAfterTheDrainTimeout(String model) throws Exception {
        Map<Socket, Boolean> held = new ConcurrentHashMap<>();
        try (ServerSocket server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try {
                    while (true) held.put(server.accept(), true);
                } catch (IOException ignored) {
                    // closed
                }
            });
            Map<String, Object> r = ClientsCommand.run(model, 40, 1, 1, Target.parse("http://127.0.0.1:" + server.getLocalPort() + "/"), List.of());
            assertEquals(40L, r.get("unfinished"), r.toString());
            assertEquals(0L, r.get("completed"), r.toString());
        } finally {
            for (Socket s : held.keySet()) s.close();
        }
    }

    @IntegrationTest
    @Test
    void moreConnectionsThanTheOpenFileLimitIsOneLineBeforeAnyConnectionOpens() throws Exception {
        long limit = ProcLimits.openFiles(ProcLimits.SELF).orElse(1_000);
        try (ChildJvm c = ChildJvm.main("clients", "--model", "virtual", "--connections", String.valueOf(limit + 1),
                "--target", "http://127.0.0.1:" + backend.port() + "/echo").start()) {
            assertEquals(2, c.exit(Duration.ofSeconds(30)), c.output());
            List<String> lines = c.output().strip().lines().collect(Collectors.toList());
            assertEquals(1, lines.size(), c.output());
            assertTrue(lines.get(0).contains("open files, but the limit is"), c.output());
        }
    }

    @Test
    void limitsAreReadFromProcFiles() {
        java.nio.file.Path limits = java.nio.file.Path.of("src/test/resources/bench/limits");
        assertEquals(20_000L, ProcLimits.openFiles(limits).orElseThrow());
        loomylin.server.cli.UsageError e = assertThrows(loomylin.server.cli.UsageError.class,
                () -> ConnectionLimits.check(19_900, 0, limits, java.nio.file.Path.of("/nonexistent")));
        assertTrue(e.getMessage().contains("the limit is 20000"), e.getMessage());
        ConnectionLimits.check(19_800, 0, limits, java.nio.file.Path.of("/nonexistent"));
    }

    @Test
    void sourceAddressesParseRangesAndListsAndRejectTheRest() {
        assertEquals(8, SourceAddresses.parse("127.0.0.2-127.0.0.9").size());
        assertEquals(List.of("127.0.0.255", "127.0.1.0", "127.0.1.5"),
                SourceAddresses.parse("127.0.0.255-127.0.1.0, 127.0.1.5").stream().map(InetAddress::getHostAddress).toList());
        assertEquals(0, SourceAddresses.parse("").size());
        for (String bad : List.of("127.0.0", "127.0.0.9-127.0.0.2", "localhost", "127.0.0.1-127.0.0.2-127.0.0.3", "127.0.0.256", "10.0.0.0-10.0.1.255")) {
            assertThrows(loomylin.server.cli.UsageError.class, () -> SourceAddresses.parse(bad), bad);
        }
    }

    private static void readThenClose(Socket s) {
        try (s; InputStream in = s.getInputStream()) {
            in.read(new byte[4096]);
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
