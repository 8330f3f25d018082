package dev.pinfeed.console.pipeline;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * One sample of the pipeline, in the shape of {@code GET /api/pipeline} (console-api). A part that could not be read
 * says so in its own place: a server or process {@code "state": "down"} with its {@code detail}, an object section's
 * {@code error}, or, for the list sections ({@code lag}, {@code mysqlShards}, {@code redisMasters}), {@code errors} under
 * the section's name. Timestamps are ISO-8601 strings.
 */
public record PipelineSnapshot(String sampledAt, List<ProcessStatus> processes, List<ServerStatus> servers, List<GroupLag> lag,
                               DeadLetterTotals deadLetters, Fanouts fanouts, HBaseStatus hbase, List<MysqlShards> mysqlShards,
                               List<RedisMaster> redisMasters, Map<String, String> errors) {

    public static final String UP = "up";
    public static final String NOT_READY = "not ready";
    public static final String DOWN = "down";

    /** Before the first sample completes ({@code sampledAt} null): every section present and empty. */
    static PipelineSnapshot empty() {
        return new PipelineSnapshot(null, List.of(), List.of(), List.of(), new DeadLetterTotals(null, List.of(), "not sampled yet"),
                new Fanouts(null, "unknown: not sampled yet"), new HBaseStatus(null, null, null, null, Map.of()), List.of(), List.of(), Map.of());
    }

    /**
     * One of pinfeed's apps as its admin endpoint answers: {@code checks} is its {@code /health/ready} body's, when it
     * answered; {@code detail} says why it is not up (null when it is).
     */
    public record ProcessStatus(String name, String role, String url, boolean live, boolean ready, String state, String detail,
                                Map<String, String> checks) {}

    /** A store probed directly: {@code state} up or down, {@code detail} what it answered or why not. */
    public record ServerStatus(String name, String kind, String address, String state, String detail) {}

    /** A consumer group's lag (summed over its partitions with a committed offset; null when unreadable now) and its recent history. */
    public record GroupLag(String group, Long lag, Integer partitions, List<LagPoint> history) {}

    /** Serialized as {@code ["2026-11-28T20:05:00Z", 0]}. */
    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    @JsonPropertyOrder({"at", "lag"})
    public record LagPoint(String at, long lag) {}

    /** Dead letters by topic and reason; {@code total} null and {@code error} set when they cannot be counted. */
    public record DeadLetterTotals(Long total, List<ReasonCount> byReason, String error) {}

    public record ReasonCount(String reason, String topic, long count) {}

    /** Fan-out jobs pending in fanout-streams; {@code inFlight} null ("unknown") when its metrics cannot be read. */
    public record Fanouts(Long inFlight, String detail) {}

    /**
     * Both HBase clusters, the replication peer on each ({@code replication}: the primary's, shipping its stages to the
     * standby cluster; {@code replicationBack}: the standby cluster's, shipping its stages back) and which cluster each
     * stage lives on ({@code stages}: {@code pools} / {@code materialized_feed} → {@code hbase-primary} / {@code hbase-standby}).
     */
    public record HBaseStatus(ClusterStatus primary, ClusterStatus standby, Replication replication, Replication replicationBack,
                              Map<String, String> stages) {
        public HBaseStatus(ClusterStatus primary, ClusterStatus standby, Replication replication) {
            this(primary, standby, replication, null, Map.of());
        }
    }

    public record ClusterStatus(String state, String address, Integer regionServers, Integer regions, String detail) {}

    /**
     * One cluster's replication to the other: the peer's {@code state} ({@code enabled}, {@code disabled}, {@code absent},
     * {@code unused} when no stage lives on that cluster so it ships nothing, or {@code unknown} when it cannot be read),
     * the largest lag and the summed WAL queue over the region servers.
     */
    public record Replication(String peer, String state, Long lagMillis, Long queueSize, String detail) {}

    /** A MySQL shard host of the live shard map: its ranges ({@code "0-2047"}, several joined by commas), shard count and addresses. */
    public record MysqlShards(String host, String range, int shards, String master, String replica) {}

    /** A Redis instance of the live master map, with its pair's other server and the virtual shards it holds. */
    public record RedisMaster(String instance, String master, String replica, String virtualShards) {}
}
