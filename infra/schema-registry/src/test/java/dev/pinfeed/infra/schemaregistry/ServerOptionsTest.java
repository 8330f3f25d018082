package dev.pinfeed.infra.schemaregistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerOptionsTest {

    @Test
    void defaults() {
        assertThat(ServerOptions.parse("--port", "18081", "--bootstrap", "127.0.0.1:19092")).isEqualTo(
                new ServerOptions("127.0.0.1", 18081, "127.0.0.1:19092", "_schemas", (short) 1, CompatibilityLevel.BACKWARD,
                        1 << 20, null));
    }

    @Test
    void everyOption() {
        assertThat(ServerOptions.parse("--host", "0.0.0.0", "--port", "0", "--bootstrap", "k1:9092,k2:9092", "--topic", "t",
                "--replication-factor", "3", "--compatibility", "full_transitive", "--max-body-bytes", "65536",
                "--basic-auth-file", "/etc/registry-auth")).isEqualTo(
                new ServerOptions("0.0.0.0", 0, "k1:9092,k2:9092", "t", (short) 3, CompatibilityLevel.FULL_TRANSITIVE,
                        65536, Path.of("/etc/registry-auth")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--port 18081                                       | --bootstrap is required",
            "--bootstrap k:9092                                 | --port is required",
            "--port http --bootstrap k:9092                     | --port must be a number",
            "--port 70000 --bootstrap k:9092                    | --port must be a number",
            "--port 1 --bootstrap k:9092 --replication-factor 0 | --replication-factor must be a number",
            "--port 1 --bootstrap k:9092 --compatibility MAYBE  | --compatibility: Invalid compatibility level",
            "--port 1 --bootstrap k:9092 --verbose true         | unknown argument '--verbose'",
            "--port 1 --bootstrap                               | --bootstrap needs a value",
            "--port 1 --bootstrap k:9092 --max-body-bytes 0     | --max-body-bytes must be a number"})
    void mistakesAreExplained(String args, String reason) {
        assertThatThrownBy(() -> ServerOptions.parse(args.trim().split(" +")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(reason);
    }

    @Test
    void mainExitsNonZeroWithOneLineOnStderr() throws IOException, InterruptedException {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SchemaRegistryServer.class.getName(), "--port", "18081")
                .start();
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(process.waitFor()).isNotZero();
        assertThat(stdout).isEmpty();
        assertThat(stderr.lines()).singleElement().asString().startsWith("schema-registry: --bootstrap is required");
    }
}
