package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Apps of one JVM ({@code stack.apps.shared-jvm}): one command over their distributions, one process, one hold. */
class SharedJvmTest {

    @TempDir Path root;

    private void distribution(String module, String mainClass, String... jars) throws Exception {
        Path dist = root.resolve(module + "/target/" + module + "-1.2.3");
        Path bin = Files.createDirectories(dist.resolve("bin"));
        // The launcher every distribution ships, as the build fills it in.
        String launcher = Files.readString(StackLayout.discover().root().resolve("infra/distribution/bin/app.sh"));
        Files.writeString(bin.resolve(module), launcher.replace("${app.main-class}", mainClass));
        Files.createDirectories(dist.resolve("conf"));
        Files.writeString(dist.resolve("conf/jvm.options"), "-XX:+UseG1GC\n");
        Path lib = Files.createDirectories(dist.resolve("lib"));
        for (String jar : jars) Files.writeString(lib.resolve(jar), "");
    }

    private Properties processors() {
        Properties values = new Properties();
        values.setProperty("graph-processor.admin.http", "127.0.0.1:8091");
        values.setProperty("materializer.admin.http", "127.0.0.1:8092");
        values.setProperty("feed-worker.admin.http", "127.0.0.1:8094");
        values.setProperty("shared-jvm.heap", "640m");
        values.setProperty("stack.apps.collector", "serial");
        values.setProperty("shared-jvm.collector", "g1");
        return values;
    }

    private List<AppSpec> apps(PinfeedConfig config, StackLayout layout, Map<String, String> materializerProperties) {
        return List.of(AppSpec.processor(layout, config, "graph-processor", "Follower graph", "graph-processor"),
                AppSpec.processor(layout, config, "materializer", "Canonical store", "materializer", materializerProperties),
                AppSpec.processor(layout, config, "feed-worker", "Feed worker", "feed-worker"));
    }

    @Test
    void theNamedAppsRunInOneJvmOverTheirDistributionsEachJarOnce() throws Exception {
        distribution("graph-processor", "dev.pinfeed.graphprocessor.GraphProcessorMain", "processor-runtime-1.jar", "jedis-5.jar");
        distribution("materializer", "dev.pinfeed.materializer.MaterializerMain", "processor-runtime-1.jar", "mariadb-3.jar");
        Properties values = processors();
        values.setProperty(SharedJvm.KEY, "graph-processor, materializer");
        StackLayout layout = new StackLayout(root, root.resolve("home"));
        PinfeedConfig config = PinfeedConfig.of(values);

        List<AppSpec> shared = SharedJvm.share(layout, config, apps(config, layout, Map.of("materializer.wait-grace-seconds", "5")));

        assertThat(shared).extracting(AppSpec::name).containsExactly("graph-processor", "materializer");
        List<String> command = shared.get(0).command();
        Path options = root.resolve("home/run/shared-jvm.jvm-options");
        assertThat(command).containsExactly(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + root.resolve("graph-processor/target/graph-processor-1.2.3/conf/jvm.options"), "@" + options,
                SharedJvm.MAIN, "dev.pinfeed.graphprocessor.GraphProcessorMain", "dev.pinfeed.materializer.MaterializerMain");
        assertThat(shared.get(1).command()).as("either member launches the same JVM").isEqualTo(command);
        List<String> lines = Files.readAllLines(options);
        assertThat(lines).contains("\"-Xmx640m\"", "\"-Dmaterializer.wait-grace-seconds=5\"", "\"-Dpinfeed.root=" + root + "\"", "\"-cp\"");
        assertThat(lines).as("the JVM's own collector, not the apps'").doesNotContain("\"-XX:+UseSerialGC\"");
        String classpath = lines.get(lines.indexOf("\"-cp\"") + 1);
        assertThat(classpath.replace("\"", "").split(":")).containsExactly(
                root.resolve("graph-processor/target/graph-processor-1.2.3/lib/jedis-5.jar").toString(),
                root.resolve("graph-processor/target/graph-processor-1.2.3/lib/processor-runtime-1.jar").toString(),
                root.resolve("materializer/target/materializer-1.2.3/lib/mariadb-3.jar").toString());
        assertThat(shared).extracting(AppSpec::logFile).containsOnly(root.resolve("home/logs/shared-jvm.log"));
    }

    @Test
    void noKeyNoSharing() {
        StackLayout layout = new StackLayout(root, root.resolve("home"));
        PinfeedConfig config = PinfeedConfig.of(processors());
        assertThat(SharedJvm.share(layout, config, apps(config, layout, Map.of()))).isEmpty();
    }

    @Test
    void anUnknownAppOrALonelyOneIsRefusedNamingTheKey() {
        StackLayout layout = new StackLayout(root, root.resolve("home"));
        Properties values = processors();
        values.setProperty(SharedJvm.KEY, "graph-processor,materialiser");
        PinfeedConfig typo = PinfeedConfig.of(values);
        assertThatThrownBy(() -> SharedJvm.share(layout, typo, apps(typo, layout, Map.of()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stack.apps.shared-jvm names no app 'materialiser' (apps: graph-processor, materializer, feed-worker)");
        values.setProperty(SharedJvm.KEY, "feed-worker");
        PinfeedConfig one = PinfeedConfig.of(values);
        assertThatThrownBy(() -> SharedJvm.share(layout, one, apps(one, layout, Map.of()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stack.apps.shared-jvm must name two or more apps: 'feed-worker'");
    }

    @Test
    void appsThatSetOnePropertyDifferentlyCannotShare() throws Exception {
        distribution("graph-processor", "dev.pinfeed.graphprocessor.GraphProcessorMain", "a.jar");
        distribution("materializer", "dev.pinfeed.materializer.MaterializerMain", "a.jar");
        Properties values = processors();
        values.setProperty(SharedJvm.KEY, "graph-processor,materializer");
        StackLayout layout = new StackLayout(root, root.resolve("home"));
        PinfeedConfig config = PinfeedConfig.of(values);
        List<AppSpec> apps = List.of(AppSpec.processor(layout, config, "graph-processor", "g", "graph-processor", Map.of("x.dir", "/a")),
                AppSpec.processor(layout, config, "materializer", "m", "materializer", Map.of("x.dir", "/b")));

        assertThatThrownBy(() -> SharedJvm.share(layout, config, apps).get(0).command()).isInstanceOf(IllegalStateException.class)
                .hasMessage("materializer and another app of stack.apps.shared-jvm set x.dir differently: they cannot share a JVM");
    }

    @Test
    void underDevTheFourProcessorsAndTheConsoleShareAJvmAndAHoldOnOneHoldsThemAll() {
        LocalStack dev = new LocalStack(new StackLayout(root, root.resolve(".pinfeed")), LocalStack.devSized(PinfeedConfig.bundledLocal()), line -> {});
        List<String> shared = List.of("graph-processor", "materializer", "fanout-streams", "feed-worker", "console");
        for (ServerSpec s : dev.specs()) {
            if (s instanceof AppSpec app) {
                assertThat(app.sharedJvm().isPresent()).as(app.name()).isEqualTo(shared.contains(app.name()));
            }
        }
        assertThat(dev.specs()).filteredOn(s -> shared.contains(s.name())).extracting(ServerSpec::logFile)
                .containsOnly(root.resolve(".pinfeed/logs/shared-jvm.log"));

        dev.stopAndHold("feed-worker", "a replay of the fan-out");

        for (String p : shared) assertThat(dev.heldBy(p)).as(p).contains("a replay of the fan-out");
        assertThat(dev.watchdogView().names()).doesNotContainAnyElementsOf(shared).contains("ingest-api", "feed-service");
        assertThat(dev.heldBy("ingest-api")).isEmpty();

        LocalStack test = new LocalStack(new StackLayout(root, root.resolve(".pinfeed")), PinfeedConfig.bundledLocal(), line -> {});
        assertThat(test.specs()).filteredOn(s -> s instanceof AppSpec).allSatisfy(s -> assertThat(((AppSpec) s).sharedJvm()).isEmpty());
    }

    @Test
    void theTotalCountsASharedJvmOnce() {
        LocalStack dev = new LocalStack(new StackLayout(root, root.resolve(".pinfeed")), LocalStack.devSized(PinfeedConfig.bundledLocal()), line -> {});
        List<LocalStack.Row> rows = List.of(
                new LocalStack.Row("kafka", "broker", "k", LocalStack.Row.UP, 10L, 500L, null, true, true),
                new LocalStack.Row("graph-processor", "g", "g", LocalStack.Row.UP, 20L, 800L, null, true, false),
                new LocalStack.Row("feed-worker", "f", "f", LocalStack.Row.UP, 20L, 800L, null, true, false),
                new LocalStack.Row("feed-service", "s", "s", LocalStack.Row.DOWN, null, null, "not running", true, false));

        assertThat(StatusReport.table(rows, dev)).contains("total RSS 1300 MB");
    }
}
