package dev.pinfeed.operations;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.operations.replay.Processors;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One run of an operations command line in the test's JVM: its exit code, what it printed to stdout and stderr. */
public record CliRun(int code, String out, String err) {

    public static CliRun of(PinfeedConfig config, Processors processors, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OperationsCli.run(() -> config, processors, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
        CliRun run = new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        System.err.println("[" + String.join(" ", args) + "] exit " + code + "\n" + run.out + run.err);
        return run;
    }
}
