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

/** An app's command line; readiness detail: the failing dependencies a 503 names. */
class AppSpecTest {

    @Test
    void anAppRunsFromItsDistributionWithItsHeapAndTheStacksPropertiesInAnArgumentFile(@TempDir Path root) throws Exception {
        Path bin = Files.createDirectories(root.resolve("feed-service/target/feed-service-1.2.3/bin"));
        Files.writeString(bin.resolve("feed-service"), "#!/bin/sh\n");
        Files.createDirectories(root.resolve("feed-service/target/feed-service-1.2.3.jar-not-a-dir"));
        Properties values = new Properties();
        values.setProperty("feed.http", "127.0.0.1:8081");
        values.setProperty("feed-service.admin.http", "127.0.0.1:8096");
        values.setProperty("feed-service.heap", "1g");
        values.setProperty("materializer.admin.http", "127.0.0.1:8092");
        StackLayout layout = new StackLayout(root, root.resolve("home"));

        AppSpec feedService = AppSpec.httpService(layout, PinfeedConfig.of(values), "feed-service", "Feed service", "feed-service", "feed.http",
                Map.of("feed.auth.issuer", "a b \"quoted\""));
        List<String> command = feedService.command();

        Path options = root.resolve("home/run/feed-service.jvm-options");
        assertThat(command).containsExactly("env", "JAVA_HOME=" + System.getProperty("java.home"), "JAVA_OPTS=@" + options,
                bin.resolve("feed-service").toString());
        assertThat(Files.readAllLines(options)).as("the footprint flags").containsAll(JavaCommand.FOOTPRINT.stream().map(f -> '"' + f + '"').toList());
        assertThat(Files.readAllLines(options)).contains("\"-Xms64m\"", "\"-XX:G1PeriodicGCInterval=60000\"", "\"-Xmx1g\"", "\"-Dpinfeed.root=" + root + "\"",
                "\"-Dfeed.auth.issuer=a b \\\"quoted\\\"\"");
        assertThat(Files.readAllLines(options)).as("G1, as the distribution's own options select").doesNotContain("\"-XX:+UseSerialGC\"");
        assertThat(Files.readAllLines(options)).as("the collector's own young generation").noneMatch(o -> o.startsWith("\"-Xmn"));
        values.setProperty("feed-service.young-gen", "96m");
        AppSpec.httpService(layout, PinfeedConfig.of(values), "feed-service", "Feed service", "feed-service", "feed.http", Map.of()).command();
        assertThat(Files.readAllLines(options)).contains("\"-Xmx1g\"", "\"-Xmn96m\"");
        values.remove("feed-service.young-gen");
        values.setProperty("stack.apps.collector", "serial");
        AppSpec.httpService(layout, PinfeedConfig.of(values), "feed-service", "Feed service", "feed-service", "feed.http", Map.of()).command();
        List<String> serial = Files.readAllLines(options);
        assertThat(serial).as("after the distribution's -XX:+UseG1GC, which JAVA_OPTS follows").containsSubsequence("\"-XX:-UseG1GC\"", "\"-XX:+UseSerialGC\"");
        AppSpec materializer = AppSpec.processor(layout, PinfeedConfig.of(values), "materializer", "Canonical store", "materializer");
        assertThatThrownBy(materializer::command).hasMessageContaining("materializer").hasMessageContaining("build first");
        assertThat(feedService.endpoint()).as("the public address is shown; health is probed on the admin one").isEqualTo("http://127.0.0.1:8081/");
    }

    @Test
    void theDistributionsJvmOptionsCarryHBasesOpens() throws Exception {
        Path jvmOptions = StackLayout.discover().root().resolve("infra/distribution/conf/jvm.options");
        assertThat(Files.readAllLines(jvmOptions)).as("the flags the stack's HBase servers and CLIs get, every shipped app gets")
                .containsAll(JavaCommand.HBASE_OPENS);
    }

    @Test
    void aHeapThatIsNoHeapSizeIsRefusedNamingItsKey(@TempDir Path root) {
        Properties values = new Properties();
        values.setProperty("feed.http", "127.0.0.1:8081");
        values.setProperty("feed-service.admin.http", "127.0.0.1:8096");
        values.setProperty("feed-service.heap", "lots");
        StackLayout layout = new StackLayout(root, root.resolve("home"));

        assertThatThrownBy(() -> AppSpec.httpService(layout, PinfeedConfig.of(values), "feed-service", "Feed service", "feed-service", "feed.http", Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("feed-service.heap must be a heap size like 256m or 1g: 'lots'");
    }

    @Test
    void aYoungGenerationThatIsNoSizeIsRefusedNamingItsKey(@TempDir Path root) {
        Properties values = new Properties();
        values.setProperty("materializer.admin.http", "127.0.0.1:8092");
        values.setProperty("materializer.young-gen", "half");
        StackLayout layout = new StackLayout(root, root.resolve("home"));

        assertThatThrownBy(() -> AppSpec.processor(layout, PinfeedConfig.of(values), "materializer", "Canonical store", "materializer"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("materializer.young-gen must be a young generation size like 256m or 1g: 'half'");
    }

    @Test
    void namesTheFailingChecksOfAHealthProblem() {
        String body = "{\"type\":\"https://pinfeed.dev/problems/dependency-down\",\"title\":\"Dependency down\",\"status\":503,"
                + "\"detail\":\"redis: connection refused; kafka: timed out after 2000 ms\","
                + "\"checks\":{\"kafka\":\"down: timed out after 2000 ms\",\"registry\":\"up\",\"redis\":\"down: connection refused\"}}";
        assertThat(AppSpec.failing(body)).isEqualTo("kafka, redis");
    }

    @Test
    void aProcessorsOneCombinedCheckShowsWhatItWaitsFor() {
        String body = "{\"status\":503,\"detail\":\"graph-processor: ...\",\"checks\":{\"graph-processor\":"
                + "\"down: kafka-group: not yet a member of group pinfeed-follower-graph\"}}";
        assertThat(AppSpec.failing(body)).isEqualTo("graph-processor (kafka-group: not yet a member of group pinfeed-follower-graph)");
    }

    @Test
    void fallsBackToTheDetailOrTheText() {
        assertThat(AppSpec.failing("{\"status\":503,\"detail\":\"warming up\"}")).isEqualTo("warming up");
        assertThat(AppSpec.failing("Service Unavailable\nmore")).isEqualTo("Service Unavailable");
        assertThat(AppSpec.failing("")).isEqualTo("503");
    }
}
