package loomylin.lab.report;

import java.util.Map;

/** Every kind of generated section, by the name its marker uses. A new kind of result adds its renderer here. */
final class Renderers {
    private Renderers() {
    }

    static Map<String, Renderer> all() {
        return Map.of(
                "bullets", new FrontPageBullets(),
                "targets", new TargetsTable(),
                "pools", new PoolsTable(),
                "memory", new MemoryTable(),
                "hop-clients", new HopClientsTable(),
                "table", new TableExcerpt(),
                "csv", new CsvTable(),
                "line", new LineExcerpt());
    }
}
