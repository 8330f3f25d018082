package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An app's command line; readiness detail: the failing dependencies a 503 names. */
class AppSpecTest {

    @Test
    void anAppsHeapComesFromItsHeapKeyAndEveryAppGetsHBasesOpens(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("feed-service/target"));
        Files.writeString(root.resolve("feed-service/target/classpath.txt"), "lib.jar");
        Properties values = new Properties();
        values.setProperty("feed.http", "127.0.0.1:8081");
        values.setProperty("feed-service.admin.http", "127.0.0.1:8096");
        values.setProperty("feed-service.heap", "1g");
        values.setProperty("materializer.admin.http", "127.0.0.1:8092");
        StackLayout layout = new StackLayout(root, root.resolve("home"));

        AppSpec feedService = AppSpec.httpService(layout, PinfeedConfig.of(values), "feed-service", "Feed service", "feed-service",
                "dev.pinfeed.feedservice.FeedServiceServer", "feed.http", Map.of());
        AppSpec materializer = AppSpec.processor(layout, PinfeedConfig.of(values), "materializer", "Canonical store", "feed-service",
                "dev.pinfeed.materializer.MaterializerMain");

        assertThat(feedService.command()).contains("-Xms1g", "-Xmx1g").doesNotContain("-Xmx256m")
                .containsAll(JavaCommand.HBASE_OPENS).endsWith("dev.pinfeed.feedservice.FeedServiceServer");
        assertThat(materializer.command()).contains("-Xmx256m").containsAll(JavaCommand.HBASE_OPENS);
        assertThat(feedService.endpoint()).as("the public address is shown; health is probed on the admin one").isEqualTo("http://127.0.0.1:8081/");
    }

    @Test
    void aHeapThatIsNoHeapSizeIsRefusedNamingItsKey(@TempDir Path root) {
        Properties values = new Properties();
        values.setProperty("feed.http", "127.0.0.1:8081");
        values.setProperty("feed-service.admin.http", "127.0.0.1:8096");
        values.setProperty("feed-service.heap", "lots");
        StackLayout layout = new StackLayout(root, root.resolve("home"));

        assertThatThrownBy(() -> AppSpec.httpService(layout, PinfeedConfig.of(values), "feed-service", "Feed service", "feed-service",
                "dev.pinfeed.feedservice.FeedServiceServer", "feed.http", Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("feed-service.heap must be a heap size like 256m or 1g: 'lots'");
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
