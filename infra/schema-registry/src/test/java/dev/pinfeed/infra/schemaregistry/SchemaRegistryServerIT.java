package dev.pinfeed.infra.schemaregistry;

import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME;
import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME_AGE;
import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME_EMAIL;
import static dev.pinfeed.infra.schemaregistry.RegistryHttpClient.schemaBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The registry against the shared stack's Kafka: schemas and ids survive a restart. */
@ExtendWith(StackExtension.class)
class SchemaRegistryServerIT {

    private String bootstrap;
    private String topic;
    private SchemaRegistryServer server;

    @BeforeEach
    void freshTopic(TestStack stack) {
        bootstrap = stack.kafkaInternalBootstrap(); // the dev registry keeps its log through the internal listener
        topic = stack.uniqueTopic("schemas");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private RegistryHttpClient startServer() {
        server = SchemaRegistryServer.start("127.0.0.1", 0, KafkaSchemaLog.open(bootstrap, topic, (short) 1), CompatibilityLevel.BACKWARD);
        return new RegistryHttpClient("http://127.0.0.1:" + server.port());
    }

    @Test
    void schemasAndIdsSurviveARestart() {
        RegistryHttpClient client = startServer();
        int users = client.post("/subjects/users-value/versions", schemaBody(USER_ID_NAME)).body().get("id").asInt();
        int pins = client.post("/subjects/pins-value/versions", schemaBody(USER_ID_NAME)).body().get("id").asInt();
        String schema = client.get("/schemas/ids/" + users).body().get("schema").asText();
        assertThat(pins).isEqualTo(users);
        assertThat(client.post("/subjects/users-value/versions", schemaBody(USER_ID_NAME_AGE)).status()).isEqualTo(409);
        client.put("/config/pins-value", Map.of("compatibility", "NONE"));
        server.close();

        RegistryHttpClient restarted = startServer();

        assertThat(restarted.get("/schemas/ids/" + users).body().get("schema").asText()).isEqualTo(schema);
        assertThat(restarted.get("/subjects").body().toString()).isEqualTo("[\"pins-value\",\"users-value\"]");
        assertThat(restarted.get("/subjects/users-value/versions/latest").body().get("id").asInt()).isEqualTo(users);
        assertThat(restarted.get("/config/pins-value").body().get("compatibilityLevel").asText()).isEqualTo("NONE");
        assertThat(restarted.post("/subjects/users-value/versions", schemaBody(USER_ID_NAME_AGE)).status()).isEqualTo(409);
        assertThat(restarted.post("/subjects/users-value/versions", schemaBody(USER_ID_NAME_EMAIL)).body().get("id").asInt())
                .isEqualTo(users + 1);
    }

    /** The process the stack launcher runs: one ready line on stdout, then a clean exit on SIGTERM. */
    @Test
    void mainServesUntilTerminated(@TempDir Path dir) throws Exception {
        Path stdout = dir.resolve("stdout");
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SchemaRegistryServer.class.getName(),
                "--port", "0", "--bootstrap", bootstrap, "--topic", topic)
                .redirectOutput(stdout.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            // Bounds only, against hanging the build; neither is a claim about speed.
            await().atMost(Duration.ofMinutes(1)).until(() -> !process.isAlive() || Files.readString(stdout).endsWith("\n"));
            String ready = Files.readString(stdout).strip();
            assertThat(ready).matches("schema-registry ready on http://127\\.0\\.0\\.1:\\d+");
            RegistryHttpClient client = new RegistryHttpClient(ready.substring(ready.indexOf("http://")));
            assertThat(client.get("/subjects").status()).isEqualTo(200);

            process.destroy(); // SIGTERM
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("exited after SIGTERM").isTrue();
        } finally {
            process.destroyForcibly();
        }
        assertThat(process.exitValue()).isEqualTo(143); // 128 + SIGTERM: the JVM ran its shutdown hooks and exited
        assertThat(Files.readAllLines(stdout)).as("stdout").hasSize(1);
    }
}
