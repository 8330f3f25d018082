package dev.pinfeed.console.pipeline;

import dev.pinfeed.console.pipeline.PipelineSnapshot.MysqlShards;
import dev.pinfeed.console.pipeline.PipelineSnapshot.ReasonCount;
import dev.pinfeed.console.pipeline.PipelineSnapshot.RedisMaster;
import dev.pinfeed.console.pipeline.PipelineSnapshot.Replication;
import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the monitor reads, one port per kind of source (adapters: {@code dev.pinfeed.console.http}, {@code .kafka},
 * {@code .hbase}, {@code .mysql}, {@code .redis}, {@code .zookeeper}). Every call may block and may throw: the
 * monitor runs each under its own deadline and shows a failure in that source's place. {@link #close()} closes
 * every port that holds resources.
 */
public record PipelineSources(AdminEndpoints admin, KafkaView kafka, DeadLetterSource deadLetters, ServerProbe schemaRegistry,
                              ServerProbe zookeeper, HBaseView hbase, ShardMaps maps, AddressProbe mysql, AddressProbe redis)
        implements AutoCloseable {

    /** An app's admin endpoint over HTTP. */
    public interface AdminEndpoints {
        /** {@code GET url} of a health route: whatever status it answers; throws when nothing answers. */
        HealthAnswer health(URI url) throws Exception;

        /** {@code GET url} of a {@code /metrics} route: the Prometheus text; throws unless it answers 200. */
        String metrics(URI url) throws Exception;
    }

    /** A health route's answer: its status, its body's {@code checks} (name → "up" or "down: why"; empty if none) and {@code detail}. */
    public record HealthAnswer(int status, Map<String, String> checks, String detail) {
        public HealthAnswer {
            checks = Collections.unmodifiableMap(new LinkedHashMap<>(checks)); // in the app's order
        }
    }

    /** The Kafka cluster. */
    public interface KafkaView {
        /** A short description when it answers ("1 broker"). */
        String cluster() throws Exception;

        /** Every consumer group's lag. */
        Map<String, ConsumerGroupLag> consumerLag() throws Exception;
    }

    /** A group's lag summed over its partitions with a committed offset, and how many those are. */
    public record ConsumerGroupLag(long lag, int partitions) {}

    /** Dead letters counted by topic and reason. */
    public interface DeadLetterSource {
        List<ReasonCount> counts() throws Exception;
    }

    /** A server with a fixed address: a short detail when it answers, an exception when not. */
    public interface ServerProbe {
        String check() throws Exception;
    }

    /** A kind of server probed at an address taken from a live map (MySQL hosts, Redis masters). */
    public interface AddressProbe {
        String check(String address) throws Exception;
    }

    public enum HBaseCluster { PRIMARY, STANDBY }

    public interface HBaseView {
        ClusterSize size(HBaseCluster cluster) throws Exception;

        /** The replication peer on {@code from} that ships its stages to the other cluster. */
        Replication replication(HBaseCluster from) throws Exception;

        /** Which cluster each home-feed stage lives on: stage ({@code pools}, {@code materialized_feed}) → cluster. */
        Map<String, HBaseCluster> stages();
    }

    public record ClusterSize(int regionServers, int regions) {}

    /** The live maps in the application ZooKeeper. */
    public interface ShardMaps {
        List<MysqlShards> mysqlShards() throws Exception;

        List<RedisMaster> redisMasters() throws Exception;
    }

    @Override
    public void close() {
        for (Object port : List.of(admin, kafka, deadLetters, schemaRegistry, zookeeper, hbase, maps, mysql, redis)) {
            if (port instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception e) {
                    // Closing is best effort: the process is stopping.
                }
            }
        }
    }
}
