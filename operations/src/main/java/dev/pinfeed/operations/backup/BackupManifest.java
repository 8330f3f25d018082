package dev.pinfeed.operations.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one backup holds ({@code manifest.json} in its directory; the only class that reads or writes
 * it): when it started and ended, a dump per MySQL host with the binlog and GTID position of its
 * snapshot, an RDB per Redis instance, an HBase snapshot per table, and every consumer group's committed
 * offsets at the start, so a restore knows where the log must be replayed from.
 */
public record BackupManifest(String id, Instant startedAt, Instant finishedAt, List<MysqlDump> mysql, List<RedisSnapshot> redis,
                             List<HBaseSnapshot> hbase, Map<String, Map<String, Long>> kafkaOffsets) {

    static final String FILE = "manifest.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** {@code file} (relative to the backup) holds shards {@code shards} ("0-63,128-255") of {@code host}. */
    public record MysqlDump(String host, String file, String shards, String binlog, String gtid, long bytes) {}

    public record RedisSnapshot(String instance, String master, String file, long bytes) {}

    /** The cluster's snapshot of {@code table}, and its rows exported to {@code export} (relative to the backup; null if none). */
    public record HBaseSnapshot(String table, String snapshot, String export, long cells, long bytes) {}

    void write(Path dir) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("id", id).put("startedAt", startedAt.toString()).put("finishedAt", finishedAt.toString());
        ArrayNode m = root.putArray("mysql");
        for (MysqlDump d : mysql) {
            m.addObject().put("host", d.host()).put("file", d.file()).put("shards", d.shards()).put("binlog", d.binlog()).put("gtid", d.gtid())
                    .put("bytes", d.bytes());
        }
        ArrayNode r = root.putArray("redis");
        for (RedisSnapshot s : redis) r.addObject().put("instance", s.instance()).put("master", s.master()).put("file", s.file()).put("bytes", s.bytes());
        ArrayNode h = root.putArray("hbase");
        for (HBaseSnapshot s : hbase) {
            ObjectNode o = h.addObject().put("table", s.table()).put("snapshot", s.snapshot());
            if (s.export() != null) o.put("export", s.export()).put("cells", s.cells()).put("bytes", s.bytes());
        }
        ObjectNode k = root.putObject("kafkaOffsets");
        kafkaOffsets.forEach((group, offsets) -> {
            ObjectNode g = k.putObject(group);
            offsets.forEach(g::put);
        });
        JSON.writeValue(dir.resolve(FILE).toFile(), root);
    }

    static BackupManifest read(Path dir) throws IOException {
        JsonNode root = JSON.readTree(dir.resolve(FILE).toFile());
        List<MysqlDump> mysql = new ArrayList<>();
        for (JsonNode d : root.path("mysql")) {
            mysql.add(new MysqlDump(d.path("host").asText(), d.path("file").asText(), d.path("shards").asText(), d.path("binlog").asText(),
                    d.path("gtid").asText(), d.path("bytes").asLong()));
        }
        List<RedisSnapshot> redis = new ArrayList<>();
        for (JsonNode s : root.path("redis")) {
            redis.add(new RedisSnapshot(s.path("instance").asText(), s.path("master").asText(), s.path("file").asText(), s.path("bytes").asLong()));
        }
        List<HBaseSnapshot> hbase = new ArrayList<>();
        for (JsonNode s : root.path("hbase")) {
            hbase.add(new HBaseSnapshot(s.path("table").asText(), s.path("snapshot").asText(), s.hasNonNull("export") ? s.path("export").asText() : null,
                    s.path("cells").asLong(), s.path("bytes").asLong()));
        }
        Map<String, Map<String, Long>> kafka = new LinkedHashMap<>();
        root.path("kafkaOffsets").fields().forEachRemaining(g -> {
            Map<String, Long> offsets = new LinkedHashMap<>();
            g.getValue().fields().forEachRemaining(o -> offsets.put(o.getKey(), o.getValue().asLong()));
            kafka.put(g.getKey(), offsets);
        });
        return new BackupManifest(root.path("id").asText(), Instant.parse(root.path("startedAt").asText()),
                Instant.parse(root.path("finishedAt").asText()), mysql, redis, hbase, kafka);
    }

    long bytes() {
        return mysql.stream().mapToLong(MysqlDump::bytes).sum() + redis.stream().mapToLong(RedisSnapshot::bytes).sum()
                + hbase.stream().mapToLong(HBaseSnapshot::bytes).sum();
    }

    static boolean exists(Path dir) {
        return Files.isRegularFile(dir.resolve(FILE));
    }
}
