package loomylin.server.launch;

import java.net.URI;
import loomylin.server.backend.Backend;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.jetty.MaxInFlight;
import loomylin.server.jetty.Twin;
import picocli.CommandLine.ITypeConverter;

/**
 * picocli's readers of the servers' typed flags. Each calls the domain's own parser, so a wrong value gets the
 * parser's one-line message (which {@link loomylin.server.cli.CommandLines} prints as the usage error), the
 * same words as before picocli read them.
 */
final class Converters {
    private Converters() {
    }

    static final class TwinValue implements ITypeConverter<Twin> {
        @Override
        public Twin convert(String text) {
            return Twin.parse(text);
        }
    }

    static final class Pools implements ITypeConverter<PoolList> {
        @Override
        public PoolList convert(String text) {
            return PoolList.parse(text);
        }
    }

    static final class PoolAt implements ITypeConverter<PoolOverride> {
        @Override
        public PoolOverride convert(String text) {
            return PoolOverride.parse(text);
        }
    }

    static final class HopClient implements ITypeConverter<HopClientKind> {
        @Override
        public HopClientKind convert(String text) {
            return HopClientKind.parse(text);
        }
    }

    static final class Limit implements ITypeConverter<MaxInFlight> {
        @Override
        public MaxInFlight convert(String text) {
            return MaxInFlight.parse(text);
        }
    }

    static final class BackendUrl implements ITypeConverter<URI> {
        @Override
        public URI convert(String text) {
            return ServerPlan.backendUrl(text);
        }
    }

    static final class Fault implements ITypeConverter<Backend.Fault> {
        @Override
        public Backend.Fault convert(String text) {
            return BackendCommand.parseFault(text);
        }
    }

    /** {@code --fault-at}: one route, or null for {@code all}. */
    static final class FaultAt implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            return BackendCommand.parseFaultAt(text);
        }
    }
}
