package dev.pinfeed.infra.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.config.PinfeedConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One of pinfeed's own services (ingest-api, feed-service, the stream processors), run from its
 * module's built classpath. Only {@code ./pinfeed dev} starts apps; the test stack is servers only
 * (tests run the services in-process).
 *
 * <p>Every app serves {@code GET /health/live}, {@code GET /health/ready} and {@code /metrics} on its
 * admin address ({@code <name>.admin.http}); the HTTP services' public ports answer only bare probes.
 * Up = live; ready = its dependencies answer (a 503 names the failing ones).
 */
final class AppSpec implements ServerSpec {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StackLayout layout;
    private final String name;
    private final String role;
    private final String module;
    private final URI baseUrl;
    /** Where its health is probed: its admin address (the details of what fails are served only there). */
    private final URI adminUrl;
    /** {@code -Xmx}, and {@code -Xmn} when it has a young generation of its own. */
    private final List<String> memory;
    private final JvmCollector collector;
    private final Map<String, String> properties;
    /** The JVM it runs in with other apps ({@link SharedJvm}), or null: its own. */
    private final SharedJvm shared;

    AppSpec(StackLayout layout, String name, String role, String module, URI baseUrl, URI adminUrl, List<String> memory,
            JvmCollector collector, Map<String, String> properties) {
        this(layout, name, role, module, baseUrl, adminUrl, memory, collector, properties, null);
    }

    private AppSpec(StackLayout layout, String name, String role, String module, URI baseUrl, URI adminUrl, List<String> memory,
                    JvmCollector collector, Map<String, String> properties, SharedJvm shared) {
        this.layout = layout;
        this.name = name;
        this.role = role;
        this.module = module;
        this.baseUrl = baseUrl;
        this.adminUrl = adminUrl;
        this.memory = List.copyOf(memory);
        this.collector = collector;
        this.properties = Map.copyOf(properties);
        this.shared = shared;
    }

    /**
     * The app's heap, {@code <name>.heap} (default 256m): the feed-service, which allocates per page read, gets more. And
     * its young generation, {@code <name>.young-gen} (default: the collector's own, a third of the heap in use): a process
     * answering thousands of pages a second with a small heap in use collects dozens of times a second, each collection
     * stopping every answer in flight.
     */
    static List<String> memory(PinfeedConfig config, String name) {
        List<String> flags = new ArrayList<>(List.of("-Xmx" + JavaCommand.heapSize(config, name + ".heap", "256m")));
        String youngKey = name + ".young-gen";
        if (config.find(youngKey).isPresent()) flags.add("-Xmn" + JavaCommand.memorySize(config, youngKey, "", "a young generation size"));
        return flags;
    }

    /** An HTTP service on its main address (config key {@code httpKey}); health and metrics on {@code <name>.admin.http}. */
    static AppSpec httpService(StackLayout layout, PinfeedConfig config, String name, String role, String module,
                               String httpKey, Map<String, String> properties) {
        return new AppSpec(layout, name, role, module, URI.create("http://" + config.hostPort(httpKey) + "/"), adminUrl(config, name),
                memory(config, name), JvmCollector.ofApp(config, name), properties);
    }

    private static URI adminUrl(PinfeedConfig config, String name) {
        return URI.create("http://" + config.hostPort(name + ".admin.http") + "/");
    }

    /** A stream processor: health and metrics on its admin address (config key {@code <name>.admin.http}). */
    static AppSpec processor(StackLayout layout, PinfeedConfig config, String name, String role, String module) {
        return processor(layout, config, name, role, module, Map.of());
    }

    /** {@link #processor} with system properties of its own (e.g. its state directory under the stack's data). */
    static AppSpec processor(StackLayout layout, PinfeedConfig config, String name, String role, String module,
                             Map<String, String> properties) {
        URI admin = adminUrl(config, name);
        return new AppSpec(layout, name, role, module, admin, admin, memory(config, name), JvmCollector.ofApp(config, name), properties);
    }

    /** The same app with {@code more} system properties (winning over its own). */
    AppSpec withProperties(Map<String, String> more) {
        Map<String, String> all = new LinkedHashMap<>(properties);
        all.putAll(more);
        return new AppSpec(layout, name, role, module, baseUrl, adminUrl, memory, collector, all, shared);
    }

    /** The same app run in {@code jvm} with the other apps of it: its command and log are the shared JVM's. */
    AppSpec in(SharedJvm jvm) {
        return new AppSpec(layout, name, role, module, baseUrl, adminUrl, memory, collector, properties, jvm);
    }

    /** The shared JVM it runs in, if any. */
    Optional<SharedJvm> sharedJvm() { return Optional.ofNullable(shared); }

    JvmCollector collector() { return collector; }

    Map<String, String> properties() { return properties; }

    @Override public String name() { return name; }
    @Override public String role() { return role; }
    @Override public String endpoint() { return baseUrl.toString(); }
    @Override public Path logFile() { return shared != null ? shared.logFile() : layout.logFile(name + ".log"); }

    /** The apps accept the dev tokens: make sure they and their files exist before any app starts. */
    @Override
    public void writeFiles() {
        DevToken.ensure(layout);
        DevReaderKeys.ensure(layout);
        Log4jConfig.APPS.write(layout);
    }

    /**
     * The app's distribution as shipped ({@code <module>/target/<module>-<version>/bin/<module>}, built with the module), with
     * the stack's JVM options in {@code JAVA_OPTS} as an argument file ({@code .pinfeed/run/<name>.jvm-options}): what is
     * run here is what ships. The distribution's conf/jvm.options carries the flags every app needs (HBase's opens).
     */
    @Override
    public List<String> command() {
        if (shared != null) return shared.command();
        Path optionsFile = writeJvmOptions(layout, name, memory, collector, properties, List.of());
        // The launcher's own JDK, as for the servers: not whatever java the PATH finds first.
        return List.of("env", "JAVA_HOME=" + System.getProperty("java.home"), "JAVA_OPTS=@" + optionsFile,
                distribution().resolve("bin").resolve(module).toString());
    }

    /**
     * The stack's options for the JVM of {@code process} (an app, or apps sharing a JVM), written as an argument file to
     * {@code .pinfeed/run/<process>.jvm-options}, which is returned: the footprint flags, heap, collector, its log, the
     * checkout's root, {@code properties} as system properties, then {@code more}.
     */
    static Path writeJvmOptions(StackLayout layout, String process, List<String> memory, JvmCollector collector,
                                Map<String, String> properties, List<String> more) {
        List<String> options = new ArrayList<>(JavaCommand.FOOTPRINT);
        options.addAll(memory);
        options.addAll(collector.overDistributionDefault());
        options.addAll(JavaCommand.logOptions(layout.logFile(process + ".log"), "INFO", Log4jConfig.APPS.file(layout)));
        options.add("-Dpinfeed.root=" + layout.root());
        properties.forEach((k, v) -> options.add("-D" + k + "=" + v));
        options.addAll(more);
        Path optionsFile = layout.home().resolve("run").resolve(process + ".jvm-options");
        StackLayout.ensure(optionsFile.getParent());
        AtomicFiles.writeIfChanged(optionsFile, JavaCommand.argumentFile(options));
        return optionsFile;
    }

    /** The class its distribution's launcher runs (infra/distribution/bin/app.sh: {@code -cp "$APP_HOME/lib/*" <main>}). */
    String mainClass() {
        Path script = distribution().resolve("bin").resolve(module);
        try {
            Matcher m = LAUNCHED_MAIN.matcher(Files.readString(script));
            if (!m.find()) throw new IllegalStateException(script + " names no main class after -cp \"$APP_HOME/lib/*\"");
            return m.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + script, e);
        }
    }

    private static final Pattern LAUNCHED_MAIN = Pattern.compile("-cp \"\\$APP_HOME/lib/\\*\" ([A-Za-z_][\\w.$]*)");

    /** The module's built distribution directory. */
    Path distribution() {
        Path target = layout.root().resolve(module).resolve("target");
        try (Stream<Path> dirs = Files.list(target)) {
            return dirs.filter(d -> d.getFileName().toString().startsWith(module + "-") && Files.isRegularFile(d.resolve("bin").resolve(module)))
                    .findFirst().orElseThrow(() -> new IllegalStateException("no distribution of " + module + " under " + target
                            + ": build first (./pinfeed builds it)"));
        } catch (IOException e) {
            throw new IllegalStateException(target + " is missing: build first (./pinfeed builds it)", e);
        }
    }

    @Override
    public boolean healthy() {
        return health().up();
    }

    @Override
    public Health health() {
        Answer live = get("health/live");
        if (live.status() == 404) return legacyHealth();
        if (live.status() != 200) return Health.down(live.status() < 0 ? "no answer at " + adminUrl + "health/live"
                : "health/live answered " + live.status());
        Answer ready = get("health/ready");
        if (ready.status() == 200) return Health.UP;
        return Health.notReady(ready.status() < 0 ? "no answer at " + adminUrl + "health/ready" : "not ready: " + failing(ready.body()));
    }

    /** Until every app serves /health/live and /health/ready (http-kit on Jetty): its /health is readiness. */
    private Health legacyHealth() {
        Answer health = get("health");
        if (health.status() == 200) return Health.UP;
        if (health.status() == 503) return Health.notReady("not ready: " + failing(health.body()));
        return Health.down("no health endpoint at " + adminUrl);
    }

    /** The failing checks a 503 names ({@code "checks": {"redis": "down: ..."}}), else its detail. */
    static String failing(String problemJson) {
        try {
            JsonNode doc = JSON.readTree(problemJson);
            List<String> names = new ArrayList<>();
            JsonNode checks = doc.path("checks");
            for (Iterator<Map.Entry<String, JsonNode>> it = checks.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().asText().equals("up")) names.add(e.getKey());
            }
            // A processor's admin endpoint reports one combined check (named after the process): its
            // "down: ..." text says which dependency, so show it rather than the process's own name.
            if (names.size() == 1) {
                String value = checks.path(names.get(0)).asText();
                if (value.startsWith("down: ")) return names.get(0) + " (" + abbreviate(value.substring(6), 200) + ")";
            }
            if (!names.isEmpty()) return String.join(", ", names);
            if (doc.hasNonNull("detail")) return doc.get("detail").asText();
        } catch (Exception notJson) {
            // fall through: show what it said
        }
        String text = problemJson == null ? "" : problemJson.strip();
        return text.isEmpty() ? "503" : text.lines().findFirst().orElse(text);
    }

    private static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 3) + "...";
    }

    private record Answer(int status, String body) {}

    private Answer get(String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(adminUrl.resolve(path)).timeout(Duration.ofSeconds(3)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(-1, "");
        } catch (Exception e) {
            return new Answer(-1, "");
        }
    }

    @Override
    public Duration startTimeout() {
        // A processor is ready once it joined its group; on a busy 2-core box that took over 60 s.
        return Duration.ofSeconds(120);
    }

    @Override
    public Duration stopGrace() {
        // Processors commit what they applied on SIGTERM; the launcher's stop must stay within ~10 s overall.
        return Duration.ofSeconds(8);
    }
}
