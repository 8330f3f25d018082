package dev.pinfeed.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** deployment/kubernetes runs every app as infra/definitions/production.example.properties configures it. */
class KubernetesManifestsTest {

    private static final Path KUBERNETES = ExampleConfiguration.ROOT.resolve("deployment/kubernetes");
    private static final String VERSION = System.getProperty("pinfeed.version", "0.1.0-SNAPSHOT");
    private static final ExampleConfiguration EXAMPLE = ExampleConfiguration.load(ExampleConfiguration.PRODUCTION_EXAMPLE);

    @Test
    void theManifestsRunEveryAppAsItsConfigurationSays() {
        assertThat(EXAMPLE.apps()).as("apps found in the configuration (modules with an admin address)")
                .contains("ingest-api", "feed-service", "graph-processor", "materializer", "fanout-streams", "feed-worker", "console");

        assertThat(ManifestChecks.problems(Manifests.load(KUBERNETES), EXAMPLE, VERSION)).isEmpty();
    }

    @Test
    void everyFileAKeyNamesIsExpectedInThePodsOfTheAppsThatReadIt() {
        assertThat(EXAMPLE.pathsReadBy("ingest-api")).containsKey("ingest.tokens-file").doesNotContainKey("feed.auth.jwks-file");
        assertThat(EXAMPLE.pathsReadBy("feed-service")).containsKey("feed.auth.jwks-file").doesNotContainKey("ingest.tokens-file");
        assertThat(EXAMPLE.pathsReadBy("fanout-streams")).containsKey("fanout.state-dir");
        // The console checks readers' tokens as feed-service does, and writes with a producer token of its own.
        assertThat(EXAMPLE.pathsReadBy("console")).containsKeys("feed.auth.jwks-file", "console.ingest.token.file", "mysql.password.file")
                .doesNotContainKeys("ingest.tokens-file", "fanout.state-dir");
        assertThat(EXAMPLE.pathsReadBy("feed-service")).doesNotContainKey("console.ingest.token.file");
        assertThat(EXAMPLE.pathsReadBy("graph-processor")).doesNotContainKeys("console.ingest.token.file", "feed.auth.jwks-file");

        ExampleConfiguration more = withLines("search.password.file=/etc/pinfeed/secrets/search-password",
                "mysql.admin.tls.truststore-password.file=/run/secrets/admin-truststore-password",
                "kafka.client.ssl.keystore.location=/etc/pinfeed/secrets/kafka-client.p12");
        for (String app : more.apps()) {
            assertThat(more.pathsReadBy(app)).as(app).containsKeys("search.password.file", "kafka.client.ssl.keystore.location")
                    .doesNotContainKey("mysql.admin.tls.truststore-password.file"); // the operators' account: no app has it
        }
    }

    @Test
    void aSecretFileAddedUnderTheSecretsDirectoryNeedsNoManifestChange() {
        ExampleConfiguration added = withLines("search.password.file=/etc/pinfeed/secrets/search-password");

        assertThat(ManifestChecks.problems(Manifests.load(KUBERNETES), added, VERSION))
                .allMatch(p -> p.contains("differs from the configuration file")); // only the copy's drift
    }

    @Test
    void aFileNoPodMountsIsNamedForEveryAppThatReadsIt() {
        ExampleConfiguration elsewhere = withLines("search.password.file=/run/secrets/search-password");

        assertThat(ManifestChecks.problems(Manifests.load(KUBERNETES), elsewhere, VERSION))
                .filteredOn(p -> p.contains("search.password.file"))
                .hasSize(elsewhere.apps().size())
                .contains("graph-processor: search.password.file=/run/secrets/search-password lies under no volume mounted in its container");
    }

    @Test
    void theReaderKeysAreExpectedInFeedServicesPodAndTheConsolesOnly() {
        ExampleConfiguration elsewhere = withLines("feed.auth.jwks-file=/run/secrets/reader-keys.json");

        assertThat(ManifestChecks.problems(Manifests.load(KUBERNETES), elsewhere, VERSION))
                .filteredOn(p -> p.contains("feed.auth.jwks-file"))
                .containsExactlyInAnyOrder("feed-service: feed.auth.jwks-file=/run/secrets/reader-keys.json lies under no volume mounted in its container",
                        "console: feed.auth.jwks-file=/run/secrets/reader-keys.json lies under no volume mounted in its container");
    }

    @Test
    void theConsolesUrlsMustReachTheAppsThroughTheirServices() {
        ExampleConfiguration wrong = withLines("console.process.feed-worker.url=http://feed-worker-admin:8096",
                "console.process.materializer.url=http://feed-worker-admin:8094",
                "console.process.graph-processor.url=http://graph-processor:8091",
                "console.process.ingest-api.url=ingest-api-admin:8097",
                "console.feed-service.url=http://feed-service-admin:8096");

        assertThat(ManifestChecks.problems(Manifests.load(KUBERNETES), wrong, VERSION)).filteredOn(p -> p.startsWith("console.")).containsExactlyInAnyOrder(
                "console.process.feed-worker.url=http://feed-worker-admin:8096: Service feed-worker-admin has no port 8096",
                "console.process.materializer.url=http://feed-worker-admin:8094: Service feed-worker-admin does not select materializer's pods",
                "console.process.graph-processor.url=http://graph-processor:8091: no Service graph-processor",
                "console.process.ingest-api.url=ingest-api-admin:8097: not an http(s) URL",
                "console.feed-service.url=http://feed-service-admin:8096: Service feed-service-admin port 8096 reaches feed-service's port 8096, expected its public port 8081");
    }

    @Test
    void brokenManifestsAreNamedProblemByProblem() {
        List<String> problems = ManifestChecks.problems(Manifests.load(Path.of("src/test/resources/broken-kubernetes")), EXAMPLE, VERSION);

        assertThat(problems).contains(
                "kustomization.yaml lists [fanout-streams.yaml, graph-processor.yaml], the directory holds [fanout-streams.yaml, graph-processor.yaml, unlisted.yaml]",
                "StatefulSet graph-processor: unknown field spec.template.spec.containers.readinesProbe",
                "graph-processor: no readiness probe (GET /health/ready on the admin port 8091)",
                "graph-processor: liveness probe GET /health, expected /health/live",
                "graph-processor: startup probe on port 8080, expected the admin port 8091",
                "graph-processor: container ports [8080, 8091], the configuration says [8091]",
                "graph-processor: pod annotation prometheus.io/port is 8080, expected 8091",
                "graph-processor: PINFEED_CONFIG=/etc/pinfeed/pinfeed.properties: pinfeed.properties differs from the configuration file",
                "graph-processor: heap -Xmx1g is over 0.75 of the memory limit 1Gi",
                "graph-processor: PINFEED_PROCESSOR_INSTANCE is not the pod's name or ordinal",
                "fanout-streams: fanout.state-dir=/var/lib/pinfeed/fanout-streams is not on a persistent volume (a StatefulSet's volume claim template)",
                "fanout-streams: no Service exposes its admin port 8093",
                "fanout-streams: image pinfeed/fanout-streams:latest, expected pinfeed/fanout-streams (its tag set by kustomize)",
                "graph-processor: PINFEED_LOG_FORMAT is not json",
                "feed-worker: no Deployment or StatefulSet",
                "console.process.fanout-streams.url=http://fanout-streams-admin:8093: no Service fanout-streams-admin");
    }

    private static ExampleConfiguration withLines(String... lines) {
        String text = new String(EXAMPLE.bytes(), StandardCharsets.ISO_8859_1) + "\n" + String.join("\n", lines) + "\n";
        return ExampleConfiguration.of(text.getBytes(StandardCharsets.ISO_8859_1));
    }
}
