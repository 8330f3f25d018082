package dev.pinfeed.infra.stack;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.config.Futures;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.stream.Collectors;
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

    /** Starts, stops and probes block for seconds each: one thread per task, not the small common pool. */
    private static final ExecutorService PARALLEL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "pinfeed-stack");
        t.setDaemon(true);
        return t;
    });

    private final StackLayout layout;
    private final PinfeedConfig config;
    private final Consumer<String> progress;
    private final Map<String, ServerSpec> specs = new LinkedHashMap<>();
    private final Map<String, ManagedProcess> processes = new LinkedHashMap<>();

    public LocalStack(StackLayout layout, PinfeedConfig config, Consumer<String> progress) {
        this(layout, config, progress, Map.of());
    }

    /**
     * A stack whose apps also get {@code appProperties} as system properties: configuration keys that win over
     * the environment's (tests run processors of their own on fresh topics and groups this way).
     */
    public LocalStack(StackLayout layout, PinfeedConfig config, Consumer<String> progress, Map<String, String> appProperties) {
        this.layout = layout;
        this.config = config;
        this.progress = progress;
        HostPort kafka = HostPort.parse(config.kafkaBootstrap().split(",")[0]);
        int controllerPort = config.getInt("stack.kafka.controller.port", kafka.port() + 1);
        // With the stack's credentials (DevSecrets) clients log in; the stack itself uses the internal listener.
        KafkaServerSpec broker = config.find(DevSecrets.KAFKA_PASSWORD)
                .map(pw -> KafkaServerSpec.stack(layout, kafka, controllerPort, config.getInt("stack.kafka.internal.port", kafka.port() + 2),
                        new KafkaServerSpec.ScramAccount(config.require(DevSecrets.KAFKA_USER), pw)))
                .orElseGet(() -> new KafkaServerSpec(layout, kafka, controllerPort))
                .withHeap(JavaCommand.heapSize(config, KafkaServerSpec.HEAP_KEY, KafkaServerSpec.DEFAULT_HEAP));
        add(broker);
        add(new SchemaRegistrySpec(layout, config, broker.internalBootstrap()));
        String hbaseHeap = JavaCommand.heapSize(config, HBaseServerSpec.HEAP_KEY, HBaseServerSpec.DEFAULT_HEAP);
        String standbyHeap = JavaCommand.heapSize(config, HBaseServerSpec.STANDBY_HEAP_KEY, hbaseHeap);
        add(new HBaseServerSpec(layout, "hbase-primary", "HBase primary (+ app ZooKeeper)", zkPort(config.hbasePrimaryZookeeper()),
                config.getInt("stack.hbase.primary.master.port", 16000), config.getInt("stack.hbase.primary.regionserver.port", 16020), hbaseHeap));
        add(new HBaseServerSpec(layout, "hbase-standby", "HBase standby (replica of primary)", zkPort(config.hbaseStandbyZookeeper()),
                config.getInt("stack.hbase.standby.master.port", 16100), config.getInt("stack.hbase.standby.regionserver.port", 16120), standbyHeap));
        int serverId = 1;
        MariaDbServerSpec.Sizes mysqlSizes = MariaDbServerSpec.Sizes.of(config);
        for (PinfeedConfig.ReplicatedHost h : config.mysqlHosts()) {
            add(new MariaDbServerSpec(layout, h.name() + "-master", h.master(), serverId++, false).sized(mysqlSizes));
            if (h.replica() != null) add(new MariaDbServerSpec(layout, h.name() + "-replica", h.replica(), serverId++, true).sized(mysqlSizes));
        }
        for (PinfeedConfig.ReplicatedHost h : config.redisInstances()) {
            String password = config.find("redis.password").orElse(null);
            add(new RedisServerSpec(layout, h.name() + "-master", h.master(), null, password));
            if (h.replica() != null) add(new RedisServerSpec(layout, h.name() + "-replica", h.replica(), h.master(), password));
        }
        // pinfeed's own apps, one line each (each serves health and metrics on <name>.admin.http).
        add(AppSpec.httpService(layout, config, "ingest-api", "Ingest API (producers' writes)", "ingest-api", "ingest.http", Map.of("ingest.tokens-file", DevToken.ingestTokensFile(layout).toString())));
        add(AppSpec.httpService(layout, config, "feed-service", "Feed service (reads, graph queries)", "feed-service", "feed.http", DevReaderKeys.feedServiceSettings(layout)));
        add(AppSpec.processor(layout, config, "graph-processor", "Follower graph (follows → Redis)", "graph-processor"));
        add(AppSpec.processor(layout, config, "materializer", "Canonical store (events → MySQL shards)", "materializer"));
        add(AppSpec.processor(layout, config, "fanout-streams", "Pin fan-out and related pins (pins, likes → fanout chunks, Kafka Streams)", "fanout-streams", Map.of("fanout.state-dir", layout.dataPath("fanout-streams").toString(),
                // The demo's most followed users are celebrities here, its most followed interests popular: their pins are
                // pulled at read time, not fanned out.
                "fanout.celebrity-followers", Integer.toString(DemoPlan.CELEBRITY_FOLLOWERS),
                "fanout.popular-interest-followers", Integer.toString(DemoPlan.POPULAR_INTEREST_FOLLOWERS))));
        add(AppSpec.processor(layout, config, "feed-worker", "Feed worker (fan-out, follows, likes → HBase pools)", "feed-worker"));
        add(AppSpec.httpService(layout, config, "console", "Console (feeds, profiles, the pipeline's state)", "console", "console.http", consoleSettings(layout)));
        if (!appProperties.isEmpty()) apps().forEach(a -> add(((AppSpec) a).withProperties(appProperties)));
        List<AppSpec> shared = SharedJvm.share(layout, config, apps().stream().map(AppSpec.class::cast).toList());
        ManagedProcess sharedProcess = new ManagedProcess(SharedJvm.NAME, layout);
        for (AppSpec app : shared) {
            specs.put(app.name(), app);
            processes.put(app.name(), sharedProcess);
        }
    }

    /** The console signs dev readers in by name (the dev reader keys) and writes with the dev producer token. */
    private static Map<String, String> consoleSettings(StackLayout layout) {
        Map<String, String> settings = new LinkedHashMap<>(DevReaderKeys.feedServiceSettings(layout));
        settings.put("console.sign-in", "dev");
        settings.put("console.pipeline.access", "open");
        settings.put("console.sign-in.private-keys-file", DevReaderKeys.privateFile(layout).toString());
        settings.put("console.sign-in.suggested-users", String.join(",", DemoPlan.firstUsernames(6)));
        settings.put("console.ingest.token.file", DevToken.tokenFile(layout).toString());
        return settings;
    }

    private List<ServerSpec> apps() {
        return specs.values().stream().filter(LocalStack::isApp).toList();
    }

    private static boolean isApp(ServerSpec s) {
        return s instanceof AppSpec;
    }

    private boolean running(ServerSpec s) {
        return processes.get(s.name()).running().isPresent();
    }

    /** The local stack of this checkout; its credentials are generated first ({@link DevSecrets}), so the configuration has them. */
    public static LocalStack fromEnvironment(Consumer<String> progress) {
        return fromEnvironment(progress, false);
    }

    /** {@link #fromEnvironment(Consumer)}, sized for {@code ./pinfeed dev} when {@code dev} ({@link #devSized}). */
    static LocalStack fromEnvironment(Consumer<String> progress, boolean dev) {
        StackLayout layout = StackLayout.discover();
        DevSecrets.ensure(layout);
        PinfeedConfig config = PinfeedConfig.load();
        return new LocalStack(layout, dev ? devSized(config) : config, progress);
    }

    /** The prefix of the keys that size the stack {@code ./pinfeed dev} runs: {@code dev.<key>} wins over {@code <key>} there. */
    static final String DEV_PREFIX = "dev.";

    /**
     * {@code config} as {@code ./pinfeed dev} runs it: every server and app on one box, with the demo dataset, so smaller
     * heaps ({@code dev.<key>}, e.g. {@code dev.stack.hbase.heap}) than the test stack's, whose load tests were measured
     * with the larger ones.
     */
    static PinfeedConfig devSized(PinfeedConfig config) {
        Map<String, String> dev = config.withPrefix(DEV_PREFIX);
        return dev.isEmpty() ? config : config.withOverrides(dev);
    }

    private void add(ServerSpec spec) {
        specs.put(spec.name(), spec);
        processes.put(spec.name(), new ManagedProcess(spec.name(), layout));
    }

    /** The process a server or app runs in: its own name, or {@link SharedJvm#NAME} for apps that share a JVM. */
    private String processOf(String name) {
        ManagedProcess p = processes.get(name);
        return p == null ? name : p.name();
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

    /** Every server and app name. */
    public List<String> serverNames() {
        return List.copyOf(specs.keySet());
    }

    /** The names of pinfeed's own apps (run by {@code ./pinfeed dev}). */
    public List<String> appNames() {
        return apps().stream().map(ServerSpec::name).toList();
    }

    /** The servers and apps with their files and processes (for preparation checks). */
    Collection<ServerSpec> specs() {
        return specs.values();
    }

    /** One line of {@code ./pinfeed status}. {@code pid}/{@code rssMb} are null when nothing runs. */
    public record Row(String name, String role, String endpoint, String state, Long pid, Long rssMb, String detail,
                      boolean expected, boolean server) {

        public static final String UP = "up";
        public static final String SICK = "sick";
        public static final String DOWN = "down";

        /** Should run and does not work: down, not answering or not ready. */
        public boolean failing() {
            return expected && !state.equals(UP);
        }
    }

    /**
     * Probes every server and app in parallel. Servers should always run; apps when {@code appsExpected}
     * (./pinfeed dev runs them) or when their process runs anyway (then it must also be ready).
     */
    public List<Row> status(boolean appsExpected) {
        List<CompletableFuture<Row>> rows = specs.values().stream()
                .map(s -> CompletableFuture.supplyAsync(() -> row(s, appsExpected), PARALLEL))
                .toList();
        return rows.stream().map(CompletableFuture::join).toList();
    }

    private Row row(ServerSpec s, boolean appsExpected) {
        Optional<ProcessHandle> h = processes.get(s.name()).running();
        boolean server = !isApp(s);
        boolean expected = server || appsExpected || h.isPresent();
        if (h.isEmpty()) {
            Optional<String> heldBy = heldBy(s.name());
            if (heldBy.isPresent()) return new Row(s.name(), s.role(), s.endpoint(), Row.DOWN, null, null, "held down: " + heldBy.get(), false, server);
            return new Row(s.name(), s.role(), s.endpoint(), Row.DOWN, null, null, expected ? "not running" : null, expected, server);
        }
        ServerSpec.Health health = s.health();
        return new Row(s.name(), s.role(), s.endpoint(), health.up() ? Row.UP : Row.SICK, h.get().pid(), rssKb(h.get().pid()) / 1024,
                health.detail(), expected, server);
    }

    /** What should run but is not up: every server, and apps whose process runs. Empty when all is well. */
    public List<String> unhealthy() {
        return status(false).stream().filter(Row::failing).map(Row::name).toList();
    }

    /** Servers (not apps) that are down or do not answer: the test stack's question. */
    public List<String> unhealthyServers() {
        return serversAmong(unhealthy());
    }

    /** The names in {@code names} that are servers, not apps. */
    public List<String> serversAmong(List<String> names) {
        return names.stream().filter(n -> !isApp(specs.get(n))).toList();
    }

    public boolean isUp() {
        return unhealthyServers().isEmpty();
    }

    /** Starts whatever server is not running and provisions; returns the servers this call started. Apps are not started. */
    public List<String> start() throws Exception {
        long t0 = System.nanoTime();
        List<ServerSpec> missing = specs.values().stream().filter(s -> !isApp(s) && !running(s)).toList();
        // Everything but the registry can start at once; the registry needs Kafka. MariaDB is up in seconds, HBase and Kafka
        // in tens of seconds: the shard databases, provisioning's longest part, are made meanwhile.
        Map<Boolean, List<ServerSpec>> firstByMariaDb = missing.stream().filter(s -> !(s instanceof SchemaRegistrySpec))
                .collect(Collectors.partitioningBy(s -> s instanceof MariaDbServerSpec));
        List<CompletableFuture<Void>> mariaDb = launch(firstByMariaDb.get(true));
        List<CompletableFuture<Void>> others = launch(firstByMariaDb.get(false));
        List<String> failures = failures(mariaDb);
        Provisioning shards = null;
        try {
            if (failures.isEmpty()) {
                configureMariaDbReplication();
                shards = new Provisioning(PROVISIONED_FIRST);
            }
            failures.addAll(failures(others));
            if (!failures.isEmpty()) throw new IllegalStateException(String.join("\n", failures));
            ((KafkaServerSpec) specs.get("kafka")).ensureClientAccount();
            startAndAwait(missing.stream().filter(s -> s instanceof SchemaRegistrySpec).toList());
            List<String> sick = unhealthyServers();
            if (!sick.isEmpty()) throw new IllegalStateException("not healthy after start: " + sick);
            new Provisioning(PROVISIONED_AFTER).await();
            shards.await();
        } finally {
            if (shards != null) shards.stop();
        }
        progress.accept(String.format(Locale.ROOT, "all servers healthy in %.1f s", (System.nanoTime() - t0) / 1e9));
        return missing.stream().map(ServerSpec::name).toList();
    }

    /** Provisioning's parts ({@code provision --only}) made as soon as MariaDB is up, and those made once every server is. */
    static final String PROVISIONED_FIRST = "mysql";
    static final String PROVISIONED_AFTER = "topics,registry,hbase,znodes";

    /** The operators' CLI (module operations), in a child JVM: the launcher only starts things, it does not link their code. */
    static final String OPERATIONS_MODULE = "operations";
    static final String OPERATIONS_MAIN = "dev.pinfeed.operations.OperationsCli";

    /**
     * Parts of infra/definitions applied to the servers ({@code ./pinfeed provision --only parts}, run by the operations CLI
     * in a child JVM with this process's configuration environment), its progress lines passed on.
     */
    private final class Provisioning {
        private final Process process;
        private final CompletableFuture<Void> done;

        Provisioning(String parts) throws IOException {
            List<String> cmd = JavaCommand.cli().flags(JavaCommand.HBASE_OPENS).property("pinfeed.root", layout.root())
                    .run(layout.classpathOf(OPERATIONS_MODULE), OPERATIONS_MAIN, "provision", "--definitions", layout.definitions().toString(),
                            "--only", parts);
            process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            process.getOutputStream().close();
            done = CompletableFuture.runAsync(this::follow, PARALLEL);
        }

        private void follow() {
            Deque<String> last = new ArrayDeque<>();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.startsWith("[pinfeed] ")) progress.accept(line.substring(10));
                    last.addLast(line);
                    if (last.size() > 5) last.removeFirst();
                }
                if (process.waitFor() != 0) {
                    throw new IllegalStateException("provisioning failed: " + String.join(" | ", last) + " (./pinfeed provision shows it again)");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while provisioning", e);
            }
        }

        void await() {
            Futures.join(done);
        }

        /** Ends the child if it still runs (the start failed elsewhere): provisioning is idempotent, the next start redoes it. */
        void stop() {
            process.destroy();
        }
    }

    private void startAndAwait(List<ServerSpec> toStart) {
        List<String> failures = startAll(toStart);
        if (!failures.isEmpty()) throw new IllegalStateException(String.join("\n", failures));
    }

    /** Starts in parallel; returns one line per failure. */
    private List<String> startAll(List<ServerSpec> toStart) {
        return failures(launch(toStart));
    }

    /** Starts each in the background ({@link #startOne}). */
    private List<CompletableFuture<Void>> launch(List<ServerSpec> toStart) {
        return toStart.stream().map(spec -> CompletableFuture.runAsync(() -> startOne(spec), PARALLEL)).toList();
    }

    /** Waits for every start; one line per failure. */
    private static List<String> failures(List<CompletableFuture<Void>> started) {
        List<String> failures = new ArrayList<>();
        for (CompletableFuture<Void> f : started) {
            try {
                f.join();
            } catch (CompletionException e) {
                failures.add(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
            }
        }
        return failures;
    }

    /** A failed start: names the server, the step and what to do next. */
    static final class StartFailure extends IllegalStateException {
        StartFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private String see(ServerSpec spec) {
        Path log = spec.logFile().startsWith(layout.root()) ? layout.root().relativize(spec.logFile()) : spec.logFile();
        return "see " + log + " (./pinfeed logs " + spec.name() + ")";
    }

    private StartFailure failed(ServerSpec spec, String step, Throwable cause, String next) {
        String why = cause.getMessage() == null ? cause.toString() : cause.getMessage().lines().findFirst().orElse("");
        return new StartFailure(spec.name() + ": " + step + " failed: " + why + " — " + next, cause);
    }

    /**
     * Writes a server's files and initializes its data directory, naming the step that failed and what to do.
     * Safe to run from any number of threads and processes at once, and again on every start.
     */
    void prepare(ServerSpec spec) {
        // Both steps under the server's lock: writing files ensures the data directory, which a
        // concurrent initialize() deletes and replaces — outside the lock that raced (FileAlreadyExists).
        try (AtomicFiles.Lock lock = AtomicFiles.lock(layout.runFile(spec.name() + ".lock"))) {
            try {
                spec.writeFiles();
            } catch (Exception e) {
                throw failed(spec, "writing its files", e, "check that " + layout.home() + " is writable");
            }
            spec.initialize();
        } catch (StartFailure e) {
            throw e;
        } catch (Exception e) {
            throw failed(spec, "initializing the data directory", e, "run ./pinfeed dev --fresh (wipes local data), or " + see(spec));
        }
    }

    /**
     * Starts one server or app unless it runs, and waits until it is up (apps: live and ready). Safe to call
     * from several threads or processes for the same server: one launches it, the others wait for it.
     */
    private void startOne(ServerSpec spec) {
        release(spec.name());
        ManagedProcess process = processes.get(spec.name());
        long t0 = System.nanoTime();
        prepare(spec);
        ProcessHandle handle;
        // Locked per process: apps sharing a JVM start from several threads, and one launches it.
        try (AtomicFiles.Lock lock = AtomicFiles.lock(layout.runFile(process.name() + ".process.lock"))) {
            Optional<ProcessHandle> already = process.running();
            if (already.isPresent()) {
                handle = already.get(); // another caller launched it meanwhile: wait for it like they do
            } else {
                try {
                    handle = process.start(spec.command());
                } catch (RuntimeException e) {
                    throw failed(spec, "launching", e, see(spec));
                }
            }
        }
        long deadline = System.nanoTime() + spec.startTimeout().toNanos();
        ServerSpec.Health health;
        while (!(health = spec.health()).up()) {
            if (!handle.isAlive() || process.running().isEmpty()) {
                String last = lastError(spec).orElse(process.lastLine());
                throw new StartFailure(spec.name() + " exited during start" + (last.isEmpty() ? "" : "; last output: " + last)
                        + " — " + see(spec), null);
            }
            if (System.nanoTime() > deadline) {
                if (health.live()) {
                    // Serving but a dependency is missing: leave it running, it becomes ready when the dependency does.
                    throw new StartFailure(spec.name() + " (pid " + handle.pid() + ") is not ready after " + spec.startTimeout().toSeconds()
                            + " s: " + health.detail() + " — ./pinfeed status shows it; " + see(spec), null);
                }
                process.stop(Duration.ofSeconds(5));
                throw new StartFailure(spec.name() + " not healthy after " + spec.startTimeout().toSeconds() + " s (" + health.detail()
                        + "); stopped it — " + see(spec), null);
            }
            sleep(250);
        }
        progress.accept(String.format(Locale.ROOT, "%-16s up in %5.1f s  %s", spec.name(), (System.nanoTime() - t0) / 1e9, spec.endpoint()));
    }

    /** Starts pinfeed's own services (after {@link #start}); returns one line per app that did not come up ready. */
    public List<String> startApps() {
        return startAll(apps().stream().filter(s -> !running(s) || !s.health().up()).toList());
    }

    /** Where the stack's own tools reach Kafka: the broker's internal listener (no login). */
    public String kafkaInternalBootstrap() {
        return ((KafkaServerSpec) specs.get("kafka")).internalBootstrap();
    }

    /** The local producer token (created on first use). */
    public String devToken() {
        return DevToken.ensure(layout);
    }

    /** A dev reader token of the user named {@code username}, whom feed-service must know. */
    public String readerToken(String username) {
        return readerToken(userId(username));
    }

    /** A dev reader token of the user {@code userId}. */
    public String readerToken(long userId) {
        return DevReaderKeys.userToken(layout, userId);
    }

    /** The id of the user named {@code username}, as feed-service knows it. */
    public long userId(String username) {
        if (username == null || !username.matches("[a-z0-9_]{3,30}")) {
            throw new IllegalArgumentException("--user: a username is 3-30 of a-z, 0-9 and _: " + username);
        }
        URI lookup = URI.create(spec("feed-service").endpoint()).resolve("/v1/users/by-username/" + username);
        HttpResponse<String> r;
        try {
            r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(lookup).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("feed-service does not answer at " + lookup + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking feed-service for user " + username, e);
        }
        if (r.statusCode() == 404) throw new IllegalArgumentException("--user: feed-service knows no user named " + username);
        if (r.statusCode() != 200) throw new IllegalStateException("feed-service answered " + r.statusCode() + " for user " + username);
        try {
            return Long.parseLong(new ObjectMapper().readTree(r.body()).path("id").asText());
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("feed-service's answer for user " + username + " has no id: " + e.getMessage(), e);
        }
    }

    /** A dev service token with the read scope. */
    public String serviceToken(String service) {
        return DevReaderKeys.serviceToken(layout, service);
    }

    /** True when the named server or app has a live process. */
    public boolean isRunning(String name) {
        return running(spec(name));
    }

    /** True when the named server or app runs and answers (apps: live and ready). */
    public boolean isUp(String name) {
        ServerSpec s = spec(name);
        return running(s) && s.health().up();
    }

    /**
     * The last error line a server wrote to its own log before dying (MariaDB writes its reason there,
     * while its console's last line is often a harmless warning).
     */
    private static Optional<String> lastError(ServerSpec spec) {
        try {
            Path log = spec.logFile();
            if (log == null || !Files.isRegularFile(log)) return Optional.empty();
            List<String> lines;
            try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(log.toFile(), "r")) {
                long from = Math.max(0, f.length() - 64 * 1024); // the end is enough; logs can be large
                byte[] tail = new byte[(int) (f.length() - from)];
                f.seek(from);
                f.readFully(tail);
                lines = new String(tail, StandardCharsets.UTF_8).lines().toList();
            }
            for (int i = lines.size() - 1; i >= 0; i--) {
                String l = lines.get(i);
                if (l.contains("[ERROR]") && !l.trim().endsWith("[ERROR] Aborting")) return Optional.of(l.trim());
            }
        } catch (IOException | RuntimeException unreadable) {
            // fall back to the console
        }
        return Optional.empty();
    }

    /** Publishes the demo dataset through ingest-api once per data directory, its progress on {@code progressOut}. */
    public void loadDemoDataset(PrintWriter progressOut, Progress.Mode mode) throws Exception {
        new DemoDataset(URI.create(spec("ingest-api").endpoint()), URI.create(spec("feed-service").endpoint()), devToken(), progress,
                progressOut, mode, DemoPlan.Size.DEFAULT).loadOnce(layout);
    }

    /** Application, administrator and replication users on each master; each replica follows its master by GTID. */
    private void configureMariaDbReplication() {
        for (PinfeedConfig.ReplicatedHost host : config.mysqlHosts()) {
            MariaDbServerSpec master = (MariaDbServerSpec) specs.get(host.name() + "-master");
            String replication = config.require(DevSecrets.MYSQL_REPLICATION_PASSWORD);
            master.createAccounts(config.mysqlUser(), config.mysqlPassword(), config.get("mysql.admin.user", null), config.get("mysql.admin.password", ""),
                    replication);
            if (specs.get(host.name() + "-replica") instanceof MariaDbServerSpec replica) replica.follow(master, replication);
        }
    }

    /** Stops every app and server. */
    public void stop() {
        stop(specs.keySet());
    }

    /** Stops the named servers: apps first (they flush to Kafka), then the registry (it needs Kafka), then the rest, each group in parallel. */
    public void stop(java.util.Collection<String> names) {
        long t0 = System.nanoTime();
        List<ServerSpec> chosen = specs.values().stream().filter(s -> names.contains(s.name())).toList();
        stopAll(chosen.stream().filter(LocalStack::isApp).toList());
        stopAll(chosen.stream().filter(s -> s instanceof SchemaRegistrySpec).toList());
        stopAll(chosen.stream().filter(s -> !(s instanceof SchemaRegistrySpec) && !isApp(s)).toList());
        progress.accept(String.format(Locale.ROOT, "stack stopped in %.1f s", (System.nanoTime() - t0) / 1e9));
    }

    private void stopAll(List<ServerSpec> toStop) {
        Map<ManagedProcess, ServerSpec> oncePerProcess = new LinkedHashMap<>();
        toStop.forEach(s -> oncePerProcess.putIfAbsent(processes.get(s.name()), s));
        List<CompletableFuture<Void>> stops = oncePerProcess.values().stream().map(s -> CompletableFuture.runAsync(() -> {
            ManagedProcess process = processes.get(s.name());
            if (process.running().isPresent() && process.stop(s.stopGrace())) {
                // The process's name: a shared JVM's, not the first of its apps'.
                progress.accept(process.name() + " did not stop within " + s.stopGrace().toSeconds() + " s: killed");
            }
        }, PARALLEL)).toList();
        stops.forEach(CompletableFuture::join);
    }

    private ServerSpec spec(String name) {
        ServerSpec s = specs.get(name);
        if (s == null) throw Cli.unknown("server", name, specs.keySet());
        return s;
    }

    /**
     * kill -9 one server: for crash-recovery tests and drills. Returns once it runs no more. It stays held
     * down (the {@link Watchdog} of {@code ./pinfeed dev} leaves it alone) until it is started again.
     */
    public void kill(String name) {
        spec(name);
        hold(name, "killed on purpose by pid " + ProcessHandle.current().pid());
        processes.get(name).kill();
    }

    /**
     * Stops one server or app (SIGTERM, kill after its grace) and keeps it down: the dev watchdog leaves it
     * alone and {@code ./pinfeed status} says why, until {@link #startServer} starts it again. For operators'
     * commands that need a processor stopped for a while (a replay moving its consumer group).
     */
    public void stopAndHold(String name, String why) {
        spec(name);
        hold(name, why);
        stop(List.of(name));
    }

    /** Marks a server held down (a file under .pinfeed/run, seen by every process) with the reason. */
    private void hold(String name, String why) {
        Path mark = layout.runFile(processOf(name) + ".held");
        try {
            Files.createDirectories(mark.getParent());
            Files.writeString(mark, why + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("marking " + name + " held down", e);
        }
    }

    private void release(String name) {
        try {
            Files.deleteIfExists(layout.runFile(processOf(name) + ".held"));
        } catch (IOException e) {
            throw new UncheckedIOException("marking " + name + " no longer held down", e);
        }
    }

    private boolean held(String name) {
        return Files.exists(layout.runFile(processOf(name) + ".held"));
    }

    /** Why a server is held down, while it is. */
    public Optional<String> heldBy(String name) {
        try {
            Path mark = layout.runFile(processOf(name) + ".held");
            return Files.exists(mark) ? Optional.of(Files.readString(mark).strip()) : Optional.empty();
        } catch (IOException e) {
            return Optional.of("(unreadable mark: " + e.getMessage() + ")");
        }
    }

    /** Where a server or app keeps its data (not created): an app's state (the fan-out's Kafka Streams stores). */
    public Path dataDirOf(String name) {
        spec(name);
        return layout.dataPath(name);
    }

    /**
     * Starts one stopped or killed server or app and waits until it is up (apps: ready); if it already runs,
     * waits until it is up. Throws, naming the step and what to do, when it does not come up.
     */
    public void startServer(String name) {
        ServerSpec s = spec(name);
        if (running(s) && s.health().up()) {
            progress.accept(name + " is already running (pid " + processes.get(name).running().map(ProcessHandle::pid).orElse(-1L) + ") and up");
            return;
        }
        startOne(s);
    }

    /** Every server and app but those {@link #kill killed on purpose}, for the {@link Watchdog} of {@code ./pinfeed dev}. */
    public Watchdog.Processes watchdogView() {
        return new Watchdog.Processes() {
            @Override
            public List<String> names() {
                return specs.keySet().stream().filter(n -> !held(n)).toList();
            }

            @Override
            public boolean isRunning(String name) {
                return LocalStack.this.isRunning(name);
            }

            @Override
            public void start(String name) {
                startServer(name);
            }
        };
    }

    public void restart(String name) {
        ServerSpec s = spec(name);
        processes.get(name).stop(s.stopGrace());
        startOne(s);
    }

    /** The log files of a server or app (console output, its own log, rolled files), oldest first. */
    public List<Path> logFiles(String name) throws IOException {
        spec(name);
        Path dir = layout.home().resolve("logs");
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> files = Files.list(dir)) {
            String process = processOf(name);
            return files.filter(p -> p.getFileName().toString().startsWith(process + "."))
                    .sorted(Comparator.comparing((Path p) -> p.toFile().lastModified()).thenComparing(Path::toString)).toList();
        }
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
