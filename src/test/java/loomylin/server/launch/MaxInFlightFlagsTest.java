package loomylin.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.MaxInFlight;
import loomylin.server.jetty.ServerOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The servers' {@code --max-in-flight} and {@code --max-in-flight-wait-ms}, read by {@link ServeOptions}: every server gets them. */
class MaxInFlightFlagsTest {

    static ServeOptions parse(String args, Map<String, String> env) {
        return ServeOptions.parse(args.isBlank() ? new String[0] : args.trim().split("\\s+"), env).orElseThrow();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "                                                   | 0              | 1000",
            "--max-in-flight 150                                | 150            | 1000",
            "--max-in-flight auto                               | auto:gradient2 | 1000",
            "--max-in-flight auto:gradient2 --max-in-flight-wait-ms 0 | auto:gradient2 | 0",
            "--max-in-flight auto:vegas --max-in-flight-wait-ms 250   | auto:vegas     | 250",
            "--max-in-flight=auto:aimd                          | auto:aimd      | 1000"})
    void everyServerGetsTheLimit(String args, String limit, int waitMs) {
        ServeOptions o = parse(args == null ? "" : args, Map.of());
        for (ServerOptions s : o.servers()) {
            assertEquals(limit, s.maxInFlight().toString());
            assertEquals(waitMs, s.maxInFlightWaitMs());
        }
        assertEquals(3, o.servers().size());
    }

    @org.junit.jupiter.api.Test
    void theEnvironmentSetsItToo() {
        ServeOptions o = parse("", Map.of("LOOMYLIN_MAX_IN_FLIGHT", "auto", "LOOMYLIN_MAX_IN_FLIGHT_WAIT_MS", "300"));
        assertEquals(MaxInFlight.parse("auto"), o.base().maxInFlight());
        assertEquals(300, o.base().maxInFlightWaitMs());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--max-in-flight auto:foo                 | --max-in-flight takes a whole number from 0 to 10000000 or auto, auto:gradient2, auto:vegas, auto:aimd; got 'auto:foo'",
            "--max-in-flight autox                    | --max-in-flight takes a whole number from 0 to 10000000 or auto, auto:gradient2, auto:vegas, auto:aimd; got 'autox'",
            "--max-in-flight -3                       | got '-3'",
            "--max-in-flight-wait-ms 200              | --max-in-flight-wait-ms is how long a request waits for --max-in-flight's slot: give --max-in-flight N or auto too",
            "--max-in-flight 0 --max-in-flight-wait-ms 200 | --max-in-flight-wait-ms is how long a request waits",
            "--max-in-flight auto --max-in-flight-wait-ms x | --max-in-flight-wait-ms must be a whole number from 0 to 600000, got 'x'"})
    void aMistakeIsOneLine(String args, String message) {
        UsageError e = assertThrows(UsageError.class, () -> parse(args, Map.of()));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
}
