package dev.pinfeed.console.pipeline;

import dev.pinfeed.console.pipeline.PipelineSettings.ProcessTarget;
import dev.pinfeed.console.pipeline.PipelineSettings.ServerAddresses;
import dev.pinfeed.console.pipeline.PipelineSnapshot.ClusterStatus;
import dev.pinfeed.console.pipeline.PipelineSnapshot.DeadLetterTotals;
import dev.pinfeed.console.pipeline.PipelineSnapshot.Fanouts;
import dev.pinfeed.console.pipeline.PipelineSnapshot.GroupLag;
import dev.pinfeed.console.pipeline.PipelineSnapshot.HBaseStatus;
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
import dev.pinfeed.console.pipeline.Probes.Outcome;
import dev.pinfeed.console.pipeline.Probes.Pending;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline monitor: every {@code refresh} (later when a sample takes longer) it probes every source in parallel,
 * each under the probe deadline ({@link Probes}), and publishes the assembled {@link PipelineSnapshot};
 * {@link #snapshot()} answers the last complete one at once. While nobody has asked for one within
 * {@link PipelineSettings#WATCHED} it samples only every {@code idleRefresh}: a sample probes some twenty sources and
 * parses fanout-streams' metrics, a tenth of a core every 2 s on a 2-core box, and the lag history needs no more than
 * that while unwatched. The first question after a quiet spell gets a fresh sample within one {@code refresh}. The MySQL and Redis servers probed are those of the
 * live maps, read in the same sample (the last maps read when they cannot be read now).
 */
public final class SampledPipelineMonitor implements PipelineMonitor {

    private static final Logger LOG = LoggerFactory.getLogger(SampledPipelineMonitor.class);
    static final String FANOUT_METRIC = "fanout_jobs_pending";

    private final PipelineSettings settings;
    private final PipelineSources sources;
    private final Clock clock;
    private final Probes probes;
    /** Lagging groups of others than pinfeed's processors shown at most. */
    static final int OTHER_GROUPS_SHOWN = 10;

    private final LagHistory history;
    private final ScheduledExecutorService schedule = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "pipeline-monitor");
        t.setDaemon(true);
        return t;
    });
    private volatile PipelineSnapshot latest = PipelineSnapshot.empty();
    // Only the sampling thread (or a test calling sample()) touches these.
    private List<MysqlShards> lastMysqlShards = List.of();
    private List<RedisMaster> lastRedisMasters = List.of();
    private boolean failedBefore;
    /** When a snapshot was last asked for, and when the last sample started; -1: never. */
    private volatile long askedAtMillis = -1;
    private volatile long sampledAtMillis = -1;

    public SampledPipelineMonitor(PipelineSettings settings, PipelineSources sources, Clock clock) {
        this.settings = settings;
        this.sources = sources;
        this.clock = clock;
        this.probes = new Probes(settings.probeTimeout());
        int capacity = (int) Math.min(100_000, PipelineSettings.HISTORY.toMillis() / Math.max(1, settings.refresh().toMillis()) + 1);
        this.history = new LagHistory(PipelineSettings.HISTORY, capacity);
    }

    /** Starts sampling in the background: the first sample at once. */
    public SampledPipelineMonitor start() {
        schedule.scheduleAtFixedRate(this::tick, 0, settings.refresh().toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public PipelineSnapshot snapshot() {
        askedAtMillis = clock.millis();
        return latest;
    }

    /** One turn of the schedule: a sample if someone is looking, or if the last one is {@code idleRefresh} old. */
    void tick() {
        long now = clock.millis();
        boolean watched = askedAtMillis >= 0 && now - askedAtMillis < PipelineSettings.WATCHED.toMillis();
        if (watched || sampledAtMillis < 0 || now - sampledAtMillis >= settings.idleRefresh().toMillis()) sampleQuietly();
    }

    private void sampleQuietly() {
        try {
            sample();
            failedBefore = false;
        } catch (RuntimeException e) {
            // A bug, not a store's failure (those are caught per probe): say it once, keep the last snapshot and go on.
            if (!failedBefore) LOG.warn("pipeline sample failed; keeping the previous one", e);
            failedBefore = true;
        }
    }

    /** Takes one sample now and publishes it. */
    public synchronized PipelineSnapshot sample() {
        Instant at = clock.instant();
        sampledAtMillis = at.toEpochMilli();
        Map<ProcessTarget, Pending<HealthAnswer>> live = new LinkedHashMap<>();
        Map<ProcessTarget, Pending<HealthAnswer>> ready = new LinkedHashMap<>();
        for (ProcessTarget p : settings.processes()) {
            if (p.url() == null) continue;
            live.put(p, probes.start("live " + p.url(), () -> sources.admin().health(p.url().resolve("health/live"))));
            ready.put(p, probes.start("ready " + p.url(), () -> sources.admin().health(p.url().resolve("health/ready"))));
        }
        URI fanoutMetrics = settings.fanoutStreams().url() == null ? null : settings.fanoutStreams().url().resolve("metrics");
        Pending<String> fanouts = fanoutMetrics == null ? null : probes.start("metrics " + fanoutMetrics, () -> sources.admin().metrics(fanoutMetrics));
        Pending<String> kafka = probes.start("kafka", sources.kafka()::cluster);
        Pending<String> registry = probes.start("schema-registry", sources.schemaRegistry()::check);
        Pending<String> zookeeper = probes.start("zookeeper", sources.zookeeper()::check);
        Pending<ClusterSize> primary = probes.start("hbase-primary", () -> sources.hbase().size(HBaseCluster.PRIMARY));
        Pending<ClusterSize> standby = probes.start("hbase-standby", () -> sources.hbase().size(HBaseCluster.STANDBY));
        Pending<Map<String, HBaseCluster>> stages = probes.start("hbase-stages", sources.hbase()::stages);
        Pending<Replication> replication = probes.start("hbase-replication", () -> sources.hbase().replication(HBaseCluster.PRIMARY));
        Pending<Replication> replicationBack = probes.start("hbase-replication-back", () -> sources.hbase().replication(HBaseCluster.STANDBY));
        Pending<Map<String, ConsumerGroupLag>> lag = probes.start("lag", sources.kafka()::consumerLag);
        Pending<List<ReasonCount>> deadLetters = probes.start("dead-letters", sources.deadLetters()::counts);
        Pending<List<MysqlShards>> mysqlMap = probes.start("mysql-shards", sources.maps()::mysqlShards);
        Pending<List<RedisMaster>> redisMap = probes.start("redis-masters", sources.maps()::redisMasters);

        Map<String, String> errors = new LinkedHashMap<>();
        Outcome<List<MysqlShards>> mysql = mysqlMap.await();
        if (mysql.ok()) lastMysqlShards = mysql.value();
        else errors.put("mysqlShards", "the live MySQL shard map cannot be read: " + mysql.error());
        Outcome<List<RedisMaster>> redis = redisMap.await();
        if (redis.ok()) lastRedisMasters = redis.value();
        else errors.put("redisMasters", "the live Redis master map cannot be read: " + redis.error());
        List<MysqlShards> mysqlHosts = lastMysqlShards;
        List<RedisMaster> redisInstances = lastRedisMasters;
        Map<String, Pending<String>> mysqlProbes = new LinkedHashMap<>();
        for (MysqlShards h : mysqlHosts) {
            mysqlProbes.put(h.master(), probes.start("mysql " + h.master(), () -> sources.mysql().check(h.master())));
            if (h.replica() != null) mysqlProbes.put(h.replica(), probes.start("mysql " + h.replica(), () -> sources.mysql().check(h.replica())));
        }
        Map<String, Pending<String>> redisProbes = new LinkedHashMap<>();
        for (RedisMaster r : redisInstances) redisProbes.put(r.master(), probes.start("redis " + r.master(), () -> sources.redis().check(r.master())));

        List<ProcessStatus> processes = new ArrayList<>();
        Outcome<HealthAnswer> unprobed = new Outcome<>(null, "not probed");
        for (ProcessTarget p : settings.processes()) {
            processes.add(ProcessStates.of(p, live.containsKey(p) ? live.get(p).await() : unprobed, ready.containsKey(p) ? ready.get(p).await() : unprobed));
        }

        ServerAddresses addresses = settings.addresses();
        Outcome<ClusterSize> primarySize = primary.await();
        Outcome<ClusterSize> standbySize = standby.await();
        List<ServerStatus> servers = new ArrayList<>();
        servers.add(server("kafka", "kafka", addresses.kafka(), kafka.await()));
        servers.add(server("schema-registry", "schema-registry", addresses.schemaRegistry(), registry.await()));
        servers.add(server("zookeeper", "zookeeper", addresses.zookeeper(), zookeeper.await()));
        servers.add(server("hbase-primary", "hbase", addresses.hbasePrimary(), describe(primarySize)));
        servers.add(server("hbase-standby", "hbase", addresses.hbaseStandby(), describe(standbySize)));
        for (MysqlShards h : mysqlHosts) {
            servers.add(server(h.host() + " master", "mysql", h.master(), mysqlProbes.get(h.master()).await()));
            if (h.replica() != null) servers.add(server(h.host() + " replica", "mysql", h.replica(), mysqlProbes.get(h.replica()).await()));
        }
        for (RedisMaster r : redisInstances) servers.add(server(r.instance() + " master", "redis", r.master(), redisProbes.get(r.master()).await()));

        Outcome<Map<String, HBaseCluster>> stagesNow = stages.await();
        Map<String, String> stageClusters = new java.util.TreeMap<>();
        if (stagesNow.ok()) stagesNow.value().forEach((stage, c) -> stageClusters.put(stage, clusterName(c)));
        HBaseStatus hbase = new HBaseStatus(cluster(addresses.hbasePrimary(), primarySize), cluster(addresses.hbaseStandby(), standbySize),
                replication(replication.await(), HBaseCluster.PRIMARY, stagesNow), replication(replicationBack.await(), HBaseCluster.STANDBY, stagesNow),
                stageClusters);

        PipelineSnapshot snapshot = new PipelineSnapshot(at.toString(), processes, servers, lag(at, lag.await(), errors),
                deadLetters(deadLetters.await()), fanouts(fanoutMetrics, fanouts), hbase, mysqlHosts, redisInstances, errors);
        latest = snapshot;
        return snapshot;
    }

    private static String clusterName(HBaseCluster c) {
        return c == HBaseCluster.PRIMARY ? "hbase-primary" : "hbase-standby";
    }

    /** A peer's state; one on a cluster no stage lives on is {@code unused} when absent (it has nothing to ship). */
    private static Replication replication(Outcome<Replication> probed, HBaseCluster from, Outcome<Map<String, HBaseCluster>> stages) {
        if (!probed.ok()) return new Replication(null, "unknown", null, null, probed.error());
        Replication r = probed.value();
        if ("absent".equals(r.state()) && stages.ok() && !stages.value().containsValue(from)) {
            return new Replication(r.peer(), "unused", null, null, "no stage lives on " + clusterName(from) + ": it ships nothing");
        }
        return r;
    }

    private static ServerStatus server(String name, String kind, String address, Outcome<String> outcome) {
        return new ServerStatus(name, kind, address, outcome.ok() ? PipelineSnapshot.UP : PipelineSnapshot.DOWN, outcome.ok() ? outcome.value() : outcome.error());
    }

    private static Outcome<String> describe(Outcome<ClusterSize> size) {
        if (!size.ok()) return new Outcome<>(null, size.error());
        ClusterSize s = size.value();
        return new Outcome<>(plural(s.regionServers(), "region server") + ", " + plural(s.regions(), "region"), null);
    }

    private static ClusterStatus cluster(String address, Outcome<ClusterSize> size) {
        return size.ok()
                ? new ClusterStatus(PipelineSnapshot.UP, address, size.value().regionServers(), size.value().regions(), null)
                : new ClusterStatus(PipelineSnapshot.DOWN, address, null, null, size.error());
    }

    /** The groups read now (pinfeed's processors' first), each with its history; when Kafka cannot be read, the groups of the history. */
    private List<GroupLag> lag(Instant at, Outcome<Map<String, ConsumerGroupLag>> now, Map<String, String> errors) {
        List<GroupLag> out = new ArrayList<>();
        if (!now.ok()) {
            history.forgetBefore(at);
            errors.put("lag", "consumer lag cannot be read: " + now.error());
            for (String group : history.groups()) out.add(new GroupLag(group, null, null, history.of(group)));
        } else {
            Map<String, Long> lags = new LinkedHashMap<>();
            now.value().forEach((group, l) -> lags.put(group, l.lag()));
            history.record(at, lags);
            now.value().forEach((group, l) -> out.add(new GroupLag(group, l.lag(), l.partitions(), history.of(group))));
        }
        List<String> own = settings.ownGroups();
        // Pinfeed's processors' groups always; any other group (an operator's replay, a tool, a test's) only while it
        // lags, the most lagging few: a cluster keeps many idle groups nobody needs to watch.
        List<GroupLag> others = out.stream().filter(g -> !own.contains(g.group()) && lastLag(g) > 0)
                .sorted(Comparator.comparingLong(SampledPipelineMonitor::lastLag).reversed()).limit(OTHER_GROUPS_SHOWN).toList();
        List<GroupLag> shown = new ArrayList<>(out.stream().filter(g -> own.contains(g.group()))
                .sorted(Comparator.comparingInt(g -> own.indexOf(g.group()))).toList());
        shown.addAll(others);
        return shown;
    }

    /** The group's lag now, or when Kafka cannot be read, at its last sample. */
    private static long lastLag(GroupLag g) {
        if (g.lag() != null) return g.lag();
        return g.history().isEmpty() ? 0 : g.history().get(g.history().size() - 1).lag();
    }

    private static DeadLetterTotals deadLetters(Outcome<List<ReasonCount>> counts) {
        if (!counts.ok()) return new DeadLetterTotals(null, List.of(), "dead letters cannot be counted: " + counts.error());
        List<ReasonCount> byReason = counts.value().stream().filter(c -> c.count() > 0)
                .sorted(Comparator.comparing(ReasonCount::topic).thenComparing(ReasonCount::reason)).toList();
        return new DeadLetterTotals(byReason.stream().mapToLong(ReasonCount::count).sum(), byReason, null);
    }

    private Fanouts fanouts(URI url, Pending<String> metrics) {
        if (metrics == null) return new Fanouts(null, "unknown: " + settings.fanoutStreams().problem());
        Outcome<String> text = metrics.await();
        if (!text.ok()) return new Fanouts(null, "unknown: fanout-streams' metrics cannot be read at " + url + ": " + text.error());
        OptionalDouble pending = PrometheusText.sum(text.value(), FANOUT_METRIC);
        if (pending.isEmpty()) return new Fanouts(null, "unknown: fanout-streams' metrics at " + url + " have no " + FANOUT_METRIC);
        return new Fanouts(Math.round(pending.getAsDouble()), "fan-out jobs pending in fanout-streams");
    }

    private static String plural(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    @Override
    public void close() {
        schedule.shutdownNow();
        probes.close();
        sources.close();
    }
}
