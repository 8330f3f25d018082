package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad command lines fail with a one-line reason (exit 2) before anything is started, stopped or probed. */
class StackCliTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return StackCli.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void noCommandPrintsUsage() {
        assertThat(run()).isEqualTo(2);
        assertThat(stderr()).startsWith("Usage: pinfeed").contains("status", "logs", "kafka");
    }

    @Test
    void helpListsTheCommandsAndExitsZero() {
        assertThat(run("--help")).isZero();
        assertThat(stdout()).contains("dev", "up", "stop", "status", "token", "start", "restart", "kill", "logs", "kafka");
        assertThat(run("help", "status")).isZero();
        assertThat(stdout()).contains("--json", "--servers");
        assertThat(stderr()).isEmpty();
    }

    @Test
    void everyCommandAnswersHelpWithoutTouchingTheStack() {
        for (String command : List.of("dev", "up", "stop", "status", "token", "start", "restart", "kill", "logs", "kafka")) {
            out.reset();
            assertThat(run(command, "--help")).as(command).isZero();
            assertThat(stdout()).as(command).startsWith("Usage: pinfeed " + command);
        }
    }

    @Test
    void unknownOptionIsNamed() {
        assertThat(run("up", "--frsh")).isEqualTo(2);
        assertThat(stderr()).contains("unknown option --frsh").contains("did you mean '--fresh'?");
        assertThat(stderr().lines()).hasSize(1);
    }

    @Test
    void unknownCommandIsNamed() {
        assertThat(run("launch")).isEqualTo(2);
        assertThat(stderr()).contains("unknown command 'launch'");
    }

    @Test
    void aTypoGetsTheClosestCommand() {
        assertThat(run("staus")).isEqualTo(2);
        assertThat(stderr()).isEqualTo("pinfeed: unknown command 'staus'; did you mean 'status'? (pinfeed --help)\n");
    }

    @Test
    void serverCommandsNeedExactlyOneKnownServer() {
        assertThat(run("restart")).isEqualTo(2);
        assertThat(stderr()).contains("takes one server name");
        err.reset();
        assertThat(run("kill", "mysql009-master")).isEqualTo(2);
        assertThat(stderr()).contains("no server 'mysql009-master'").contains("did you mean 'mysql001-master'?");
        assertThat(stderr().lines()).hasSize(1);
    }

    @Test
    void kafkaNeedsAKnownTool() {
        assertThat(run("kafka", "consumer-group", "--list")).isEqualTo(2);
        assertThat(stderr()).contains("no kafka tool 'consumer-group'; did you mean 'consumer-groups'?");
    }

    @Test
    void theKafkaToolGetsTheStacksBootstrapUnlessGiven() {
        assertThat(KafkaTools.withBootstrap(List.of("--list"), "127.0.0.1:19092"))
                .containsExactly("--list", "--bootstrap-server", "127.0.0.1:19092");
        assertThat(KafkaTools.withBootstrap(List.of("--bootstrap-server", "k:9092", "--list"), "127.0.0.1:19092"))
                .containsExactly("--bootstrap-server", "k:9092", "--list");
    }
}
