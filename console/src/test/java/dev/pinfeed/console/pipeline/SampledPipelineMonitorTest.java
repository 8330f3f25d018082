package dev.pinfeed.console.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.console.pipeline.PipelineSnapshot.GroupLag;
import dev.pinfeed.console.pipeline.PipelineSnapshot.MysqlShards;
import dev.pinfeed.console.pipeline.PipelineSnapshot.ProcessStatus;
import dev.pinfeed.console.pipeline.PipelineSnapshot.ReasonCount;
import dev.pinfeed.console.pipeline.PipelineSnapshot.RedisMaster;
import dev.pinfeed.console.pipeline.PipelineSnapshot.Replication;
import dev.pinfeed.console.pipeline.PipelineSnapshot.ServerStatus;
import dev.pinfeed.console.pipeline.PipelineSources.ClusterSize;
import dev.pinfeed.console.pipeline.PipelineSources.ConsumerGroupLag;
import dev.pinfeed.console.pipeline.PipelineSources.HBaseCluster;
import dev.pinfeed.console.pipeline.PipelineSources.HealthAnswer;
import dev.pinfeed.feedstore.MutableClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The sampling over simple stand-ins for every source: the snapshot's shape, and each failure kept in its own place. */
@Timeout(30)
class SampledPipelineMonitorTest {

    private static final Instant T0 = Instant.parse("2026-11-28T20:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMillis(300);

    /** Every source answering; a test replaces one with a failure. */
    private static final class Stubs {
        Map<String, Callable<HealthAnswer>> health = new LinkedHashMap<>();
        Callable<String> metrics = () -> "fanout_jobs_pending{task=\"0_0\"} 2.0\nfanout_jobs_pending{task=\"0_1\"} 1.0\n";
        Callable<String> kafka = () -> "1 broker";
        Callable<Map<String, ConsumerGroupLag>> lag = () -> Map.of("it-group", new ConsumerGroupLag(4, 1),
                "pinfeed-materializer", new ConsumerGroupLag(0, 6), "pinfeed-follower-graph", new ConsumerGroupLag(12, 6));
        Callable<List<ReasonCount>> deadLetters = () -> List.of(new ReasonCount("invalid", "pinfeed.dead-letter.v1", 2),
                new ReasonCount("undecodable", "pinfeed.dead-letter.v1", 1));
        Callable<String> registry = () -> "12 subjects";
        Callable<String> zookeeper = () -> "connected";
        Callable<ClusterSize> primary = () -> new ClusterSize(1, 40);
        Callable<ClusterSize> standby = () -> new ClusterSize(1, 38);
        Callable<Replication> replication = () -> new Replication("standby", "enabled", 120L, 0L, null);
        Callable<Replication> replicationBack = () -> new Replication("primary", "enabled", 80L, 1L, null);
        Map<String, HBaseCluster> stages = Map.of("pools", HBaseCluster.PRIMARY, "materialized_feed", HBaseCluster.STANDBY);
        Callable<List<MysqlShards>> mysqlShards = () -> List.of(new MysqlShards("mysql001", "0-2047", 2048, "127.0.0.1:13306", "127.0.0.1:13307"),
                new MysqlShards("mysql002", "2048-4095", 2048, "127.0.0.1:13316", null));
        Callable<List<RedisMaster>> redisMasters = () -> List.of(new RedisMaster("redis001", "127.0.0.1:16379", "127.0.0.1:16380", "0-4095"));
        Map<String, Callable<String>> hosts = new LinkedHashMap<>();

        PipelineSources sources() {
            return new PipelineSources(new PipelineSources.AdminEndpoints() {
                @Override
                public HealthAnswer health(URI url) throws Exception {
                    Callable<HealthAnswer> answer = health.get(url.toString());
                    if (answer == null) throw new IllegalStateException("connection refused");
                    return answer.call();
                }

                @Override
                public String metrics(URI url) throws Exception {
                    return metrics.call();
                }
            }, new PipelineSources.KafkaView() {
                @Override
                public String cluster() throws Exception {
                    return kafka.call();
                }

                @Override
                public Map<String, ConsumerGroupLag> consumerLag() throws Exception {
                    return lag.call();
                }
            }, () -> deadLetters.call(), () -> registry.call(), () -> zookeeper.call(), new PipelineSources.HBaseView() {
                @Override
                public ClusterSize size(HBaseCluster cluster) throws Exception {
                    return cluster == HBaseCluster.PRIMARY ? primary.call() : standby.call();
                }

                @Override
                public Replication replication(HBaseCluster from) throws Exception {
                    return from == HBaseCluster.PRIMARY ? replication.call() : replicationBack.call();
                }

                @Override
                public Map<String, HBaseCluster> stages() {
                    return stages;
                }
            }, new PipelineSources.ShardMaps() {
                @Override
                public List<MysqlShards> mysqlShards() throws Exception {
                    return mysqlShards.call();
                }

                @Override
                public List<RedisMaster> redisMasters() throws Exception {
                    return redisMasters.call();
                }
            }, address -> hosts.getOrDefault(address, () -> "ok").call(), address -> hosts.getOrDefault(address, () -> "master").call());
        }
    }

    private final Stubs stubs = new Stubs();
    private final MutableClock clock = new MutableClock(T0.toEpochMilli());
    private SampledPipelineMonitor monitor;

    @AfterEach
    void close() {
        if (monitor != null) monitor.close();
    }

    private SampledPipelineMonitor monitor(String... keyValues) {
        Properties p = new Properties();
        p.setProperty("kafka.bootstrap", "127.0.0.1:19092");
        p.setProperty("schema.registry.url", "http://127.0.0.1:18081");
        p.setProperty("app.zookeeper", "127.0.0.1:12181");
        p.setProperty("hbase.primary.zookeeper", "127.0.0.1:12181");
        p.setProperty("hbase.standby.zookeeper", "127.0.0.1:12182");
        p.setProperty(PipelineSettings.PROBE_TIMEOUT_KEY, Long.toString(TIMEOUT.toMillis()));
        p.setProperty(PipelineSettings.PROCESSES_KEY, "materializer,feed-worker,graph-processor");
        p.setProperty("materializer.admin.http", "127.0.0.1:8092");
        p.setProperty("feed-worker.admin.http", "0.0.0.0:8094");
        p.setProperty("graph-processor.admin.http", "127.0.0.1:8091");
        p.setProperty("fanout-streams.admin.http", "127.0.0.1:8093");
        for (int i = 0; i < keyValues.length; i += 2) p.setProperty(keyValues[i], keyValues[i + 1]);
        monitor = new SampledPipelineMonitor(PipelineSettings.from(PinfeedConfig.of(p)), stubs.sources(), clock);
        return monitor;
    }

    private void appsAnswer() {
        stubs.health.put("http://127.0.0.1:8092/health/live", () -> new HealthAnswer(200, Map.of(), null));
        stubs.health.put("http://127.0.0.1:8092/health/ready", () -> new HealthAnswer(200, Map.of("materializer", "up"), null));
        stubs.health.put("http://127.0.0.1:8094/health/live", () -> new HealthAnswer(200, Map.of(), null));
        stubs.health.put("http://127.0.0.1:8094/health/ready", () -> new HealthAnswer(503, Map.of("feed-worker", "down: hbase: timeout"), null));
    }

    @Test
    void unwatchedItSamplesEveryIdleRefreshAndEveryRefreshOnceSomeoneLooks() {
        java.util.concurrent.atomic.AtomicInteger samples = new java.util.concurrent.atomic.AtomicInteger();
        stubs.kafka = () -> {
            samples.incrementAndGet();
            return "1 broker";
        };
        monitor(PipelineSettings.IDLE_REFRESH_KEY, "30000");
        long t = T0.toEpochMilli();
        monitor.tick();
        assertThat(samples).as("the first turn samples").hasValue(1);
        clock.set(t += 2_000);
        monitor.tick();
        assertThat(samples).as("nobody looking: not before the idle refresh").hasValue(1);
        clock.set(t += 28_000);
        monitor.tick();
        assertThat(samples).hasValue(2);

        monitor.snapshot(); // someone looks
        clock.set(t += 2_000);
        monitor.tick();
        clock.set(t += 2_000);
        monitor.tick();
        assertThat(samples).as("watched: every refresh").hasValue(4);

        clock.set(t += PipelineSettings.WATCHED.toMillis());
        monitor.tick();
        assertThat(samples).as("the idle refresh since the last sample has passed").hasValue(5);
        clock.set(t += 2_000);
        monitor.tick();
        assertThat(samples).as("nobody has looked for a minute: idle again").hasValue(5);
    }

    @Test
    void anIdleRefreshShorterThanTheRefreshIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> monitor(PipelineSettings.REFRESH_KEY, "5000", PipelineSettings.IDLE_REFRESH_KEY, "1000"))
                .hasMessageContaining(PipelineSettings.IDLE_REFRESH_KEY);
    }

    @Test
    void beforeTheFirstSampleTheSnapshotIsThereAndEmpty() {
        PipelineSnapshot s = monitor().snapshot();

        assertThat(s.sampledAt()).isNull();
        assertThat(s.processes()).isEmpty();
        assertThat(s.deadLetters().error()).isEqualTo("not sampled yet");
    }

    @Test
    void aSampleHasEveryPartInTheApisShape() throws Exception {
        appsAnswer();
        PipelineSnapshot s = monitor().sample();

        assertThat(s.sampledAt()).isEqualTo("2026-11-28T20:00:00Z");
        assertThat(s.processes()).extracting(ProcessStatus::name, ProcessStatus::state, ProcessStatus::url).containsExactly(
                org.assertj.core.groups.Tuple.tuple("materializer", "up", "http://127.0.0.1:8092/"),
                org.assertj.core.groups.Tuple.tuple("feed-worker", "not ready", "http://127.0.0.1:8094/"),
                org.assertj.core.groups.Tuple.tuple("graph-processor", "down", "http://127.0.0.1:8091/"));
        assertThat(s.processes().get(1).detail()).isEqualTo("hbase: timeout");
        assertThat(s.processes().get(2).detail()).contains("connection refused");
        assertThat(s.processes().get(0).role()).isEqualTo("Canonical store (events → MySQL shards)");

        assertThat(s.servers()).extracting(ServerStatus::name).containsExactly("kafka", "schema-registry", "zookeeper", "hbase-primary",
                "hbase-standby", "mysql001 master", "mysql001 replica", "mysql002 master", "redis001 master");
        assertThat(s.servers()).allSatisfy(server -> assertThat(server.state()).isEqualTo("up"));
        assertThat(s.servers().get(3)).isEqualTo(new ServerStatus("hbase-primary", "hbase", "127.0.0.1:12181", "up", "1 region server, 40 regions"));
        assertThat(s.servers().get(2).address()).isEqualTo("127.0.0.1:12181/pinfeed");

        assertThat(s.lag()).extracting(GroupLag::group).as("pinfeed's processors' groups first").containsExactly("pinfeed-materializer",
                "pinfeed-follower-graph", "it-group");
        assertThat(s.lag().get(1).lag()).isEqualTo(12);
        assertThat(s.lag().get(1).partitions()).isEqualTo(6);
        assertThat(s.deadLetters().total()).isEqualTo(3);
        assertThat(s.fanouts().inFlight()).isEqualTo(3);
        assertThat(s.hbase().standby().regions()).isEqualTo(38);
        assertThat(s.hbase().replication().lagMillis()).isEqualTo(120);
        assertThat(s.hbase().replicationBack().peer()).isEqualTo("primary");
        assertThat(s.hbase().replicationBack().lagMillis()).isEqualTo(80);
        assertThat(s.hbase().stages()).containsEntry("pools", "hbase-primary").containsEntry("materialized_feed", "hbase-standby");
        assertThat(s.mysqlShards()).extracting(MysqlShards::shards).containsExactly(2048, 2048);
        assertThat(s.redisMasters()).extracting(RedisMaster::instance).containsExactly("redis001");
        assertThat(s.errors()).isEmpty();

        JsonNode json = new ObjectMapper().valueToTree(s);
        assertThat(json.fieldNames()).toIterable().containsExactly("sampledAt", "processes", "servers", "lag", "deadLetters", "fanouts", "hbase",
                "mysqlShards", "redisMasters", "errors");
        assertThat(json.at("/lag/0/history/0").toString()).isEqualTo("[\"2026-11-28T20:00:00Z\",0]");
        assertThat(json.at("/processes/0/detail").isNull()).isTrue();
        assertThat(json.at("/deadLetters/byReason/0").toString()).isEqualTo("{\"reason\":\"invalid\",\"topic\":\"pinfeed.dead-letter.v1\",\"count\":2}");
    }

    @Test
    void theLagHistoryGrowsWithTheSamples() {
        monitor();
        monitor.sample();
        clock.set(T0.plusSeconds(2).toEpochMilli());
        stubs.lag = () -> Map.of("it-group", new ConsumerGroupLag(1, 1));
        PipelineSnapshot s = monitor.sample();

        assertThat(s.lag()).extracting(GroupLag::group).containsExactly("it-group");
        assertThat(s.lag().get(0).history()).extracting(PipelineSnapshot.LagPoint::lag).containsExactly(4L, 1L);
    }

    @Test
    void groupsOfOthersThanTheProcessorsShowOnlyWhileTheyLagTheMostLaggingFew() {
        monitor();
        Map<String, ConsumerGroupLag> groups = new java.util.HashMap<>();
        groups.put("pinfeed-materializer", new ConsumerGroupLag(0, 6));
        groups.put("idle-tool", new ConsumerGroupLag(0, 3));
        for (int i = 0; i < SampledPipelineMonitor.OTHER_GROUPS_SHOWN + 5; i++) groups.put("replay-" + i, new ConsumerGroupLag(100 + i, 1));
        stubs.lag = () -> groups;

        PipelineSnapshot s = monitor.sample();

        List<String> shown = s.lag().stream().map(GroupLag::group).toList();
        assertThat(shown).first().isEqualTo("pinfeed-materializer");
        assertThat(shown).doesNotContain("idle-tool").hasSize(1 + SampledPipelineMonitor.OTHER_GROUPS_SHOWN);
        assertThat(shown.get(1)).as("the most lagging first").isEqualTo("replay-" + (SampledPipelineMonitor.OTHER_GROUPS_SHOWN + 4));
    }

    @Test
    void eachFailingSourceShowsItsErrorInItsOwnPlace() throws Exception {
        appsAnswer();
        monitor();
        monitor.sample();
        clock.set(T0.plusSeconds(2).toEpochMilli());
        stubs.kafka = () -> {
            throw new IllegalStateException("Timed out waiting for a node assignment");
        };
        stubs.lag = () -> {
            throw new IllegalStateException("Timed out waiting for a node assignment");
        };
        stubs.deadLetters = () -> {
            throw new IllegalStateException("no leader");
        };
        stubs.replication = () -> {
            throw new java.io.IOException("master is initializing");
        };
        stubs.standby = () -> {
            throw new java.io.IOException("connection refused");
        };
        stubs.metrics = () -> {
            throw new java.io.IOException("connection refused");
        };
        stubs.mysqlShards = () -> {
            throw new IllegalStateException("ConnectionLoss");
        };
        stubs.hosts.put("127.0.0.1:13307", () -> {
            throw new java.sql.SQLException("Access denied for user 'pinfeed'");
        });

        PipelineSnapshot s = monitor.sample();

        assertThat(server(s, "kafka")).isEqualTo(new ServerStatus("kafka", "kafka", "127.0.0.1:19092", "down", "Timed out waiting for a node assignment"));
        assertThat(server(s, "hbase-standby").state()).isEqualTo("down");
        assertThat(server(s, "mysql001 replica").detail()).isEqualTo("Access denied for user 'pinfeed'");
        assertThat(server(s, "mysql001 master").state()).as("the last map read lists the hosts").isEqualTo("up");
        assertThat(server(s, "schema-registry").state()).isEqualTo("up");
        assertThat(s.errors()).containsOnlyKeys("lag", "mysqlShards");
        assertThat(s.errors().get("lag")).contains("Timed out waiting for a node assignment");
        assertThat(s.lag()).as("the groups of the history, lag unknown").extracting(GroupLag::group, GroupLag::lag).contains(
                org.assertj.core.groups.Tuple.tuple("it-group", null));
        assertThat(s.lag().get(0).history()).hasSize(1);
        assertThat(s.deadLetters().total()).isNull();
        assertThat(s.deadLetters().error()).contains("no leader");
        assertThat(s.fanouts().inFlight()).isNull();
        assertThat(s.fanouts().detail()).startsWith("unknown: ").contains("connection refused");
        assertThat(s.hbase().primary().state()).isEqualTo("up");
        assertThat(s.hbase().standby().detail()).isEqualTo("connection refused");
        assertThat(s.hbase().replication().state()).isEqualTo("unknown");
        assertThat(s.hbase().replication().detail()).isEqualTo("master is initializing");
        assertThat(s.mysqlShards()).as("the last map read").hasSize(2);
        assertThat(s.processes().get(0).state()).isEqualTo("up");
    }

    @Test
    void withBothStagesOnOneClusterTheOtherClustersAbsentPeerIsUnusedNotDown() {
        stubs.stages = Map.of("pools", HBaseCluster.PRIMARY, "materialized_feed", HBaseCluster.PRIMARY);
        stubs.replicationBack = () -> new Replication("primary", "absent", null, null, "the standby cluster has no replication peer 'primary'");

        PipelineSnapshot s = monitor().sample();

        assertThat(s.hbase().replicationBack().state()).isEqualTo("unused");
        assertThat(s.hbase().replicationBack().detail()).contains("no stage lives on hbase-standby");
        assertThat(s.hbase().replication().state()).isEqualTo("enabled");

        stubs.stages = Map.of("pools", HBaseCluster.PRIMARY, "materialized_feed", HBaseCluster.STANDBY);
        assertThat(monitor.sample().hbase().replicationBack().state()).as("a stage lives there: its missing peer is a fault").isEqualTo("absent");
    }

    @Test
    void aHungSourceTimesOutAloneIsNotStartedTwiceAndItsLateAnswerIsShownNext() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        stubs.primary = () -> {
            calls.incrementAndGet();
            release.await(20, TimeUnit.SECONDS);
            return new ClusterSize(2, 80);
        };
        monitor();

        PipelineSnapshot first = monitor.sample();
        assertThat(server(first, "hbase-primary").detail()).isEqualTo("no answer within 300 ms");
        assertThat(server(first, "hbase-standby").state()).isEqualTo("up");
        assertThat(server(first, "kafka").state()).isEqualTo("up");
        assertThat(first.lag()).hasSize(3);

        PipelineSnapshot second = monitor.sample();
        assertThat(server(second, "hbase-primary").state()).isEqualTo("down");
        assertThat(calls).as("the hung probe is awaited again, not started again").hasValue(1);

        release.countDown();
        PipelineSnapshot third = monitor.sample();
        assertThat(server(third, "hbase-primary").detail()).isEqualTo("2 region servers, 80 regions");
        assertThat(calls).hasValue(1);
    }

    @Test
    void anAppWithoutAnAddressIsDownAndAWildcardAddressIsTheLoopback() {
        PipelineSnapshot s = monitor(PipelineSettings.PROCESSES_KEY, "feed-worker,nowhere,elsewhere", "console.process.elsewhere.url",
                "http://10.0.0.7:9000", "console.process.nowhere.role", "Nothing").sample();

        assertThat(s.processes().get(0).url()).isEqualTo("http://127.0.0.1:8094/");
        assertThat(s.processes().get(1).detail()).isEqualTo(
                "no admin address: configuration key 'nowhere.admin.http' (or 'console.process.nowhere.url') is not set");
        assertThat(s.processes().get(1).role()).isEqualTo("Nothing");
        assertThat(s.processes().get(2).url()).isEqualTo("http://10.0.0.7:9000/");
    }

    private static ServerStatus server(PipelineSnapshot s, String name) {
        return s.servers().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
    }
}
