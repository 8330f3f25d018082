package dev.pinfeed.loadharness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The harness's command line: help and bad options never start a run; exit codes 0/1/2. */
class OptionsTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<Options> runs = new ArrayList<>();

    private int run(int exitCode, String... args) {
        return Options.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), o -> {
            runs.add(o);
            return exitCode;
        }, args);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void defaults() {
        assertThat(run(0)).isZero();
        assertThat(runs).containsExactly(new Options(20, 100, 8, 5, 64, 10, 20, false, null, null));
    }

    @Test
    void everyOptionReachesTheRun() {
        assertThat(run(0, "--duration-s", "30", "--batch", "500", "--clients", "4", "--warmup-s", "0", "--open-threads", "16",
                "--single-duration-s", "7", "--create-percent", "0", "--keep-topics", "--url", "http://127.0.0.1:8080", "--token", "t")).isZero();
        assertThat(runs).containsExactly(new Options(30, 500, 4, 0, 16, 7, 0, true, "http://127.0.0.1:8080", "t"));
    }

    @Test
    void theRunsExitCodeIsTheProcesss() {
        assertThat(run(1)).isEqualTo(1);
    }

    @Test
    void helpPrintsUsageAndRunsNothing() {
        assertThat(run(0, "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Usage: IngestLoadHarness", "--batch", "--create-percent");
        assertThat(runs).isEmpty();
    }

    @Test
    void aTypoGetsTheClosestOption() {
        assertThat(run(0, "--bach", "10")).isEqualTo(2);
        assertThat(stderr()).isEqualTo("IngestLoadHarness: unknown option --bach; did you mean '--batch'? (IngestLoadHarness --help)\n");
        assertThat(runs).isEmpty();
    }

    @Test
    void badValuesAreUsageErrorsInOneLine() {
        for (String[] args : List.of(new String[] {"--batch", "1001"}, new String[] {"--batch", "0"}, new String[] {"--create-percent", "101"},
                new String[] {"--clients", "many"}, new String[] {"--url", "http://x"}, new String[] {"--warmup-s", "-1"})) {
            err.reset();
            assertThat(run(0, args)).as(String.join(" ", args)).isEqualTo(2);
            assertThat(stderr().lines()).as(String.join(" ", args)).hasSize(1);
        }
        assertThat(runs).isEmpty();
    }
}
