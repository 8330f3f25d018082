package dev.pinfeed.console.pipeline;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.processorruntime.ProcessorGroups;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The pipeline monitor's keys: {@code console.refresh-millis} (how often it samples while someone looks, 2000),
 * {@code console.idle-refresh-millis} (how often while nobody has looked for {@link #WATCHED}, 30000),
 * {@code console.probe-timeout-millis} (each probe's deadline, 1500), {@code console.processes} (the apps it probes,
 * default {@link #DEFAULT_PROCESSES}), each at {@code console.process.<name>.url} or else its
 * {@code <name>.admin.http} (a wildcard bind address read as the loopback), with the role
 * {@code console.process.<name>.role} (default: a short table of pinfeed's apps), and {@code console.lag.groups}
 * (the groups listed first under lag; default the processors' groups as their own keys name them).
 */
public record PipelineSettings(Duration refresh, Duration idleRefresh, Duration probeTimeout, List<ProcessTarget> processes, ProcessTarget fanoutStreams,
                               List<String> ownGroups, ServerAddresses addresses) {

    public static final String REFRESH_KEY = "console.refresh-millis";
    public static final String IDLE_REFRESH_KEY = "console.idle-refresh-millis";
    /** Someone is looking while the pipeline's state was asked for within this long. */
    public static final Duration WATCHED = Duration.ofMinutes(1);
    public static final String PROBE_TIMEOUT_KEY = "console.probe-timeout-millis";
    public static final String PROCESSES_KEY = "console.processes";
    public static final String GROUPS_KEY = "console.lag.groups";
    public static final String DEFAULT_PROCESSES = "ingest-api,feed-service,graph-processor,materializer,fanout-streams,feed-worker";
    /** How far back the lag history goes. */
    public static final Duration HISTORY = Duration.ofMinutes(10);

    private static final Map<String, String> ROLES = Map.of(
            "ingest-api", "Ingest API (producers' writes)",
            "feed-service", "Feed service (reads, graph queries, home feed)",
            "graph-processor", "Follower graph (follows → Redis)",
            "materializer", "Canonical store (events → MySQL shards)",
            "fanout-streams", "Pin fan-out and related pins (pins, likes → fan-out chunks, Kafka Streams)",
            "feed-worker", "Feed worker (fan-out, follows, likes → HBase pools)");

    /**
     * An app's admin endpoint ({@code url}, ending in '/'), or, when its address is not configured, {@code url} null and
     * {@code problem} saying which key is missing: the app then shows as down with that reason.
     */
    public record ProcessTarget(String name, String role, URI url, String problem) {}

    /** Where the stores are, as the servers list shows them. */
    public record ServerAddresses(String kafka, String schemaRegistry, String zookeeper, String hbasePrimary, String hbaseStandby) {}

    public PipelineSettings {
        if (refresh.isNegative() || refresh.isZero()) throw new IllegalStateException("configuration key '" + REFRESH_KEY + "' must be positive");
        if (idleRefresh.compareTo(refresh) < 0) {
            throw new IllegalStateException("configuration key '" + IDLE_REFRESH_KEY + "' must be at least '" + REFRESH_KEY + "'");
        }
        if (probeTimeout.isNegative() || probeTimeout.isZero()) {
            throw new IllegalStateException("configuration key '" + PROBE_TIMEOUT_KEY + "' must be positive");
        }
        processes = List.copyOf(processes);
        ownGroups = List.copyOf(ownGroups);
    }

    public static PipelineSettings from(PinfeedConfig config) {
        List<String> names = config.find(PROCESSES_KEY).isPresent() ? config.list(PROCESSES_KEY) : List.of(DEFAULT_PROCESSES.split(","));
        List<ProcessTarget> processes = names.stream().map(name -> target(config, name)).toList();
        List<String> groups = config.find(GROUPS_KEY).isPresent() ? config.list(GROUPS_KEY) : processorGroups(config);
        ServerAddresses addresses = new ServerAddresses(config.kafkaBootstrap(), config.schemaRegistryUrl(),
                config.appZookeeper() + "/" + config.appZookeeperNamespace(), config.hbasePrimaryZookeeper(), config.hbaseStandbyZookeeper());
        Duration refresh = Duration.ofMillis(config.getInt(REFRESH_KEY, 2000));
        Duration idleRefresh = Duration.ofMillis(config.getInt(IDLE_REFRESH_KEY, (int) Math.max(30_000, refresh.toMillis())));
        return new PipelineSettings(refresh, idleRefresh, Duration.ofMillis(config.getInt(PROBE_TIMEOUT_KEY, 1500)),
                processes, target(config, "fanout-streams"), groups, addresses);
    }

    static ProcessTarget target(PinfeedConfig config, String name) {
        String role = config.find("console.process." + name + ".role").orElse(ROLES.get(name));
        String urlKey = "console.process." + name + ".url";
        String addressKey = name + ".admin.http";
        try {
            if (config.find(urlKey).isPresent()) {
                String url = config.require(urlKey);
                URI uri = URI.create(url.endsWith("/") ? url : url + "/");
                if (uri.getScheme() == null || uri.getHost() == null) throw new IllegalArgumentException("not an http(s) URL: " + url);
                return new ProcessTarget(name, role, uri, null);
            }
            if (config.find(addressKey).isEmpty()) {
                return new ProcessTarget(name, role, null, "no admin address: configuration key '" + addressKey + "' (or '" + urlKey + "') is not set");
            }
            HostPort admin = config.hostPort(addressKey);
            // A wildcard bind address is reached on the loopback; an app elsewhere needs console.process.<name>.url.
            String host = admin.host().equals("0.0.0.0") || admin.host().equals("::") ? "127.0.0.1" : admin.host();
            return new ProcessTarget(name, role, URI.create("http://" + new HostPort(host, admin.port()) + "/"), null);
        } catch (IllegalArgumentException | IllegalStateException e) {
            return new ProcessTarget(name, role, null, "bad admin address: " + e.getMessage());
        }
    }

    /**
     * The consumer groups of pinfeed's processors, named by the same keys and defaults the processors use
     * ({@link ProcessorGroups}; the console links no processor): the materializer's, the graph processor's,
     * fanout-streams' application ids (the fan-out's and, unless {@code related.enabled} is false, the related pins'),
     * the feed worker's and its bulk lane's.
     */
    private static List<String> processorGroups(PinfeedConfig config) {
        String worker = config.get("feed.worker.group", "pinfeed-feed-worker");
        List<String> groups = new java.util.ArrayList<>(List.of(ProcessorGroups.materializer(config),
                ProcessorGroups.followerGraph(config), config.get("fanout.application-id", "pinfeed-fanout")));
        if (Boolean.parseBoolean(config.get("related.enabled", "true"))) groups.add(config.get("related.application-id", "pinfeed-related"));
        groups.add(worker);
        groups.add(worker + "-bulk");
        return List.copyOf(groups);
    }
}
