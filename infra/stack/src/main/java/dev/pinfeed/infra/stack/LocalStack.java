package dev.pinfeed.infra.stack;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The local stack: every server as its own process, started in dependency order with a health wait
 * each, then provisioned from infra/definitions. Any process (the dev supervisor, a test JVM, another
 * shell) can attach to a running stack through the pid files under {@code .pinfeed/run}.
 */
public final class LocalStack {

    static {
        // Bind SLF4J once, before parallel start-up and probe threads race to it (and warn about substitute loggers).
        org.slf4j.LoggerFactory.getLogger(LocalStack.class);
    }

    private final StackLayout layout;
    private final PinfeedConfig config;
    private final Consumer<String> progress;
    private final Map<String, ServerSpec> specs = new LinkedHashMap<>();
    private final Map<String, ManagedProcess> processes = new LinkedHashMap<>();

    public LocalStack(StackLayout layout, PinfeedConfig config, Consumer<String> progress) {
        this.layout = layout;
        this.config = config;
        this.progress = progress;
        HostPort kafka = HostPort.parse(config.kafkaBootstrap().split(",")[0]);
        add(new KafkaServerSpec(layout, kafka, config.getInt("stack.kafka.controller.port", kafka.port() + 1)));
        add(new SchemaRegistrySpec(layout, config.schemaRegistryUrl(), config.kafkaBootstrap()));
        add(new HBaseServerSpec(layout, "hbase-primary", "HBase primary (+ app ZooKeeper)", zkPort(config.hbasePrimaryZookeeper()),
                config.getInt("stack.hbase.primary.master.port", 16000), config.getInt("stack.hbase.primary.regionserver.port", 16020)));
        add(new HBaseServerSpec(layout, "hbase-standby", "HBase standby (replica of primary)", zkPort(config.hbaseStandbyZookeeper()),
                config.getInt("stack.hbase.standby.master.port", 16100), config.getInt("stack.hbase.standby.regionserver.port", 16120)));
        int serverId = 1;
        for (PinfeedConfig.ReplicatedHost h : config.mysqlHosts()) {
            add(new MariaDbServerSpec(layout, h.name() + "-master", h.master(), serverId++, false));
            if (h.replica() != null) add(new MariaDbServerSpec(layout, h.name() + "-replica", h.replica(), serverId++, true));
        }
        for (PinfeedConfig.ReplicatedHost h : config.redisInstances()) {
            add(new RedisServerSpec(layout, h.name() + "-master", h.master(), null));
            if (h.replica() != null) add(new RedisServerSpec(layout, h.name() + "-replica", h.replica(), h.master()));
        }
        add(new AppSpec(layout, "ingest-api", "Ingest API (producers' writes)", "ingest-api", "dev.pinfeed.ingestapi.IngestApiServer",
                URI.create("http://" + config.hostPort("ingest.http") + "/"),
                Map.of("ingest.tokens-file", DevToken.ingestTokensFile(layout).toString())));
        add(new AppSpec(layout, "feed-service", "Feed service (reads, graph queries)", "feed-service", "dev.pinfeed.feedservice.FeedServiceServer",
                URI.create("http://" + config.hostPort("feed.http") + "/"), Map.of()));
        add(new AppSpec(layout, "graph-processor", "Follower graph (follows → Redis)", "graph-processor",
                "dev.pinfeed.graphprocessor.GraphProcessorMain", null, Map.of()));
        add(new AppSpec(layout, "feed-worker", "Feed worker (fan-out chunks, follows, likes → HBase pools)", "feed-worker",
                "dev.pinfeed.feedworker.process.FeedWorkerMain",
                config.find("feed-worker.admin.http").map(a -> URI.create("http://" + HostPort.parse(a) + "/")).orElse(null), Map.of()));
    }

    private List<ServerSpec> apps() {
        return specs.values().stream().filter(s -> s instanceof AppSpec).toList();
    }

    private boolean running(ServerSpec s) {
        return processes.get(s.name()).running().isPresent();
    }

    public static LocalStack fromEnvironment(Consumer<String> progress) {
        return new LocalStack(StackLayout.discover(), PinfeedConfig.load(), progress);
    }

    private void add(ServerSpec spec) {
        specs.put(spec.name(), spec);
        processes.put(spec.name(), new ManagedProcess(spec.name(), layout));
    }

    private static int zkPort(String quorum) {
        return HostPort.parse(quorum.split(",")[0]).port();
    }

    public PinfeedConfig config() {
        return config;
    }

    public StackLayout layout() {
        return layout;
    }

    public List<String> serverNames() {
        return List.copyOf(specs.keySet());
    }

    /** Servers whose process is gone or that do not answer. Empty when the whole stack is up. */
    public List<String> unhealthy() {
        List<CompletableFuture<Optional<String>>> checks = specs.values().stream()
                // An app that is not running is fine (only ./pinfeed dev runs apps); one that runs must answer.
                .filter(s -> !(s instanceof AppSpec) || running(s))
                .map(s -> CompletableFuture.supplyAsync(() ->
                        running(s) && s.healthy() ? Optional.<String>empty() : Optional.of(s.name())))
                .toList();
        return checks.stream().map(CompletableFuture::join).flatMap(Optional::stream).toList();
    }

    /** The names in {@code names} that are servers, not apps. */
    public List<String> serversAmong(List<String> names) {
        return names.stream().filter(n -> !(specs.get(n) instanceof AppSpec)).toList();
    }

    public boolean isUp() {
        return unhealthy().isEmpty();
    }

    /** Starts whatever server is not running and provisions; returns the servers this call started. Apps are not started. */
    public List<String> start() throws Exception {
        long t0 = System.nanoTime();
        List<ServerSpec> missing = specs.values().stream().filter(s -> !(s instanceof AppSpec) && !running(s)).toList();
        // Everything but the registry can start at once; the registry needs Kafka.
        List<ServerSpec> first = missing.stream().filter(s -> !(s instanceof SchemaRegistrySpec)).toList();
        startAndAwait(first);
        configureMariaDbReplication();
        startAndAwait(missing.stream().filter(s -> s instanceof SchemaRegistrySpec).toList());
        List<String> sick = unhealthy();
        if (!sick.isEmpty()) throw new IllegalStateException("not healthy after start: " + sick);
        new Provisioner(config, layout.definitions(), progress).all();
        progress.accept(String.format(Locale.ROOT, "all healthy in %.1f s", (System.nanoTime() - t0) / 1e9));
        return missing.stream().map(ServerSpec::name).toList();
    }

    private void startAndAwait(List<ServerSpec> toStart) throws Exception {
        List<CompletableFuture<Void>> started = new ArrayList<>();
        for (ServerSpec spec : toStart) {
            started.add(CompletableFuture.runAsync(() -> startOne(spec)));
        }
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < started.size(); i++) {
            try {
                started.get(i).join();
            } catch (Exception e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                failures.add(cause.getMessage());
            }
        }
        if (!failures.isEmpty()) throw new IllegalStateException(String.join("\n", failures));
    }

    private void startOne(ServerSpec spec) {
        ManagedProcess process = processes.get(spec.name());
        long t0 = System.nanoTime();
        try {
            layout.dataDir(spec.name()); // again: a --fresh wipe removes what the constructors created
            spec.prepare();
        } catch (Exception e) {
            throw new IllegalStateException(spec.name() + ": preparing failed: " + e, e);
        }
        ProcessHandle handle = process.start(spec.command());
        long deadline = System.nanoTime() + spec.startTimeout().toNanos();
        while (!spec.healthy()) {
            if (!handle.isAlive()) {
                throw new IllegalStateException(spec.name() + " exited during start; last output:\n" + process.tail(15)
                        + "\n(see " + layout.logsDir() + ")");
            }
            if (System.nanoTime() > deadline) {
                process.stop(Duration.ofSeconds(5));
                throw new IllegalStateException(spec.name() + " not healthy after " + spec.startTimeout().toSeconds()
                        + " s; last output:\n" + process.tail(15) + "\n(see " + layout.logsDir() + ")");
            }
            sleep(250);
        }
        progress.accept(String.format(Locale.ROOT, "%-16s up in %5.1f s  %s", spec.name(), (System.nanoTime() - t0) / 1e9, spec.endpoint()));
    }

    /** Starts pinfeed's own services (after {@link #start}). */
    public List<String> startApps() throws Exception {
        List<ServerSpec> missing = apps().stream().filter(s -> !running(s)).toList();
        startAndAwait(missing);
        return missing.stream().map(ServerSpec::name).toList();
    }

    /** The local producer token (created on first use). */
    public String devToken() {
        return DevToken.ensure(layout);
    }

    /** True when the named server or app has a live process. */
    public boolean isRunning(String name) {
        return running(spec(name));
    }

    /** Publishes the demo dataset through the running ingest-api, once per data directory. */
    public void loadDemoDataset() throws Exception {
        new DemoDataset(URI.create(spec("ingest-api").endpoint()), devToken(), progress).loadOnce(layout);
    }

    /** Application and replication users on each master; each replica follows its master by GTID. */
    private void configureMariaDbReplication() {
        String user = config.mysqlUser();
        String password = config.mysqlPassword().replace("'", "''");
        for (PinfeedConfig.ReplicatedHost host : config.mysqlHosts()) {
            MariaDbServerSpec master = (MariaDbServerSpec) specs.get(host.name() + "-master");
            // No SUPER / READ ONLY ADMIN: the application user cannot write to a read-only replica.
            master.sql("CREATE USER IF NOT EXISTS 'repl'@'%' IDENTIFIED BY 'repl';"
                    + "GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%';"
                    + "CREATE USER IF NOT EXISTS '" + user + "'@'%' IDENTIFIED BY '" + password + "';"
                    + "GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, INDEX, ALTER, CREATE TEMPORARY TABLES, "
                    + "LOCK TABLES, REFERENCES, EXECUTE, CREATE VIEW, SHOW VIEW, TRIGGER, PROCESS, REPLICATION CLIENT ON *.* TO '"
                    + user + "'@'%';");
            ServerSpec replicaSpec = specs.get(host.name() + "-replica");
            if (replicaSpec instanceof MariaDbServerSpec replica) {
                if (replica.sql("SHOW SLAVE STATUS").isBlank()) {
                    replica.sql("CHANGE MASTER TO MASTER_HOST='" + master.address().host() + "', MASTER_PORT="
                            + master.address().port() + ", MASTER_USER='repl', MASTER_PASSWORD='repl', "
                            + "MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1; START SLAVE;");
                } else {
                    replica.sql("START SLAVE;");
                }
            }
        }
    }

    /** Stops every app and server. */
    public void stop() {
        stop(specs.keySet());
    }

    /** Stops the named servers: the registry first (it needs Kafka to stop cleanly), then the rest in parallel. */
    public void stop(java.util.Collection<String> names) {
        long t0 = System.nanoTime();
        List<ServerSpec> chosen = specs.values().stream().filter(s -> names.contains(s.name())).toList();
        // Apps first (they flush to Kafka), then the registry, then the servers.
        stopAll(chosen.stream().filter(s -> s instanceof AppSpec).toList());
        stopAll(chosen.stream().filter(s -> s instanceof SchemaRegistrySpec).toList());
        stopAll(chosen.stream().filter(s -> !(s instanceof SchemaRegistrySpec) && !(s instanceof AppSpec)).toList());
        progress.accept(String.format(Locale.ROOT, "stack stopped in %.1f s", (System.nanoTime() - t0) / 1e9));
    }

    private void stopAll(List<ServerSpec> toStop) {
        List<CompletableFuture<Void>> stops = toStop.stream().map(s -> CompletableFuture.runAsync(() -> {
            if (processes.get(s.name()).running().isPresent() && processes.get(s.name()).stop(s.stopGrace())) {
                progress.accept(s.name() + " did not stop within " + s.stopGrace().toSeconds() + " s: killed");
            }
        })).toList();
        stops.forEach(CompletableFuture::join);
    }

    private ServerSpec spec(String name) {
        ServerSpec s = specs.get(name);
        if (s == null) throw new IllegalArgumentException("no server '" + name + "'; servers: " + specs.keySet());
        return s;
    }

    /** kill -9 one server: for crash-recovery tests. */
    public void kill(String name) {
        spec(name);
        processes.get(name).kill();
    }

    /** Starts one stopped or killed server and waits until it is healthy. */
    public void startServer(String name) {
        ServerSpec s = spec(name);
        if (processes.get(name).running().isEmpty()) startOne(s);
    }

    public void restart(String name) {
        ServerSpec s = spec(name);
        processes.get(name).stop(s.stopGrace());
        startOne(s);
    }

    /** Deletes all data and logs. Only with nothing running. */
    public void wipe() throws IOException {
        List<String> running = specs.keySet().stream().filter(n -> processes.get(n).running().isPresent()).toList();
        if (!running.isEmpty()) throw new IllegalStateException("stop the stack before wiping it; running: " + running);
        for (Path dir : List.of(layout.home().resolve("data"), layout.home().resolve("logs"))) {
            if (!Files.exists(dir)) continue;
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.delete(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
    }

    /** The endpoint table: server, role, endpoint, state, pid and resident memory. */
    public String table() {
        return table(unhealthy());
    }

    /** The endpoint table for an already-probed health result (probing HBase costs a connection). */
    public String table(List<String> unhealthy) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-16s %-40s %-24s %-6s %8s %8s%n",
                "SERVER", "ROLE", "ENDPOINT", "STATE", "PID", "RSS MB"));
        long totalKb = 0;
        for (ServerSpec s : specs.values()) {
            Optional<ProcessHandle> h = processes.get(s.name()).running();
            long rssKb = h.map(p -> rssKb(p.pid())).orElse(0L);
            totalKb += rssKb;
            sb.append(String.format(Locale.ROOT, "%-16s %-40s %-24s %-6s %8s %8s%n", s.name(), s.role(), s.endpoint(),
                    h.isPresent() ? (unhealthy.contains(s.name()) ? "sick" : "up") : "down", h.map(p -> String.valueOf(p.pid())).orElse("-"),
                    h.isPresent() ? String.valueOf(rssKb / 1024) : "-"));
        }
        sb.append(String.format(Locale.ROOT, "%-16s %-40s %-24s%n", "app-config", "ZooKeeper (Curator namespace)",
                config.appZookeeper() + "/" + config.appZookeeperNamespace()));
        sb.append(String.format(Locale.ROOT, "total RSS %d MB; data %s; logs %s%n", totalKb / 1024,
                layout.home().resolve("data"), layout.logsDir()));
        return sb.toString();
    }

    static long rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        } catch (IOException | RuntimeException e) {
            // process gone
        }
        return 0;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
