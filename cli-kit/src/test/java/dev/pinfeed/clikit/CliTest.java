package dev.pinfeed.clikit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class CliTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Command(name = "tool", mixinStandardHelpOptions = true, subcommands = {Status.class, Fail.class, Bad.class, Print.class})
    static final class Tool {}

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Shows the status.")
    static final class Status implements Callable<Integer> {
        @Option(names = "--json") boolean json;
        @Option(names = "--servers") boolean servers;

        @Override public Integer call() {
            return json ? Cli.FAILED : Cli.OK;
        }
    }

    @Command(name = "print")
    static final class Print implements Callable<Integer> {
        @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

        @Override public Integer call() {
            spec.commandLine().getOut().print("no newline, no autoflush");
            return Cli.OK;
        }
    }

    @Command(name = "fail")
    static final class Fail implements Callable<Integer> {
        @Override public Integer call() {
            throw new IllegalStateException("kafka did not start\n  at some.Trace", new RuntimeException("root"));
        }
    }

    @Command(name = "bad")
    static final class Bad implements Callable<Integer> {
        @Override public Integer call() {
            throw Cli.unknown("server", "mysql09-master", List.of("mysql001-master", "mysql002-master", "kafka"));
        }
    }

    private int run(String... args) {
        return Cli.execute(new Tool(), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpPrintsUsageAndExitsZero() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Usage: tool", "status");
        assertThat(run("status", "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Shows the status.");
        assertThat(stderr()).isEmpty();
    }

    @Test
    void aMistypedCommandGetsTheClosestOneInOneLine() {
        assertThat(run("staus")).isEqualTo(Cli.USAGE);
        assertThat(stderr()).isEqualTo("tool: unknown command 'staus'; did you mean 'status'? (tool --help)\n");
    }

    @Test
    void aMistypedOptionGetsTheClosestOne() {
        assertThat(run("status", "--jsno")).isEqualTo(Cli.USAGE);
        assertThat(stderr()).isEqualTo("tool status: unknown option --jsno; did you mean '--json'? (tool status --help)\n");
    }

    @Test
    void nothingCloseMeansNoSuggestion() {
        assertThat(run("frobnicate")).isEqualTo(Cli.USAGE);
        assertThat(stderr()).contains("unknown command 'frobnicate'").doesNotContain("did you mean");
    }

    @Test
    void exitCodesSayOkFailedOrUsage() {
        assertThat(run("status")).isEqualTo(Cli.OK);
        assertThat(run("status", "--json")).isEqualTo(Cli.FAILED);
        assertThat(run("fail")).isEqualTo(Cli.FAILED);
        assertThat(stderr()).isEqualTo("tool fail: kafka did not start\n");
    }

    @Test
    void anUnknownNameIsAUsageErrorWithASuggestion() {
        assertThat(run("bad")).isEqualTo(Cli.USAGE);
        assertThat(stderr()).contains("no server 'mysql09-master'; did you mean 'mysql001-master'?");
        assertThat(stderr().lines()).hasSize(1);
    }

    @Test
    void outputIsFlushedBeforeTheCallerExits() {
        assertThat(run("print")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("no newline, no autoflush");
    }

    @Test
    void foreignExceptionsShowTheirRootCauseType() {
        assertThat(Cli.firstLine(new RuntimeException(new java.io.IOException("connection refused\nmore")))).isEqualTo("IOException: connection refused");
    }

    @Test
    void distanceCountsASwapAsOneEdit() {
        assertThat(Cli.distance("staus", "status")).isEqualTo(1);
        assertThat(Cli.distance("stauts", "status")).isEqualTo(1);
        assertThat(Cli.closest("sttaus", List.of("start", "status", "stop"))).contains("status");
        assertThat(Cli.closest("xyz", List.of("start", "status", "stop"))).isEmpty();
    }
}
