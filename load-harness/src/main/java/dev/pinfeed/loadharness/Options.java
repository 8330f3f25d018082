package dev.pinfeed.loadharness;

import dev.pinfeed.clikit.Cli;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Command-line options of {@link IngestLoadHarness}. Durations are per phase, in seconds. */
record Options(int durationS, int batch, int clients, int warmupS, int openThreads, int singleDurationS, int createPercent,
               boolean keepTopics, String url, String token) {

    /** What runs a parsed command line: returns the exit code. */
    @FunctionalInterface
    interface Run {
        int run(Options options) throws Exception;
    }

    /** Parses {@code args} and runs {@code run}; {@code --help} and bad options never reach it (exit 0 / 2). */
    static int execute(PrintStream out, PrintStream err, Run run, String... args) {
        return Cli.execute(new Command(run), out, err, args);
    }

    @CommandLine.Command(name = "IngestLoadHarness", mixinStandardHelpOptions = true, version = "pinfeed load-harness",
            description = {"Benchmark of ingest-api's batch write path against the bare Kafka producer (see load-harness/README.md).",
                    "Exit 0: every request answered 202; 1: some were not; 2: bad options."})
    static final class Command implements Callable<Integer> {
        private final Run run;

        @Spec CommandSpec spec;

        @Option(names = "--duration-s", paramLabel = "N", description = "Measured seconds per phase (default: ${DEFAULT-VALUE}).")
        int durationS = 20;
        @Option(names = "--batch", paramLabel = "N", description = "Events per POST /v1/events request, 1-1000 (default: ${DEFAULT-VALUE}).")
        int batch = 100;
        @Option(names = "--clients", paramLabel = "N", description = "Concurrent connections of the closed-loop phases (default: ${DEFAULT-VALUE}).")
        int clients = 8;
        @Option(names = "--warmup-s", paramLabel = "N", description = "Unmeasured warm-up before each phase (default: ${DEFAULT-VALUE}).")
        int warmupS = 5;
        @Option(names = "--open-threads", paramLabel = "N", description = "Client threads of the open-loop half-peak phase (default: ${DEFAULT-VALUE}).")
        int openThreads = 64;
        @Option(names = "--single-duration-s", paramLabel = "N", description = "Measured seconds of the single-event phase (default: max(5, duration/2)).")
        Integer singleDurationS;
        @Option(names = "--create-percent", paramLabel = "N",
                description = "Share of PinCreated in the mix, 0-100 (default: ${DEFAULT-VALUE}; the rest PinLiked/PinUnliked).")
        int createPercent = 20;
        @Option(names = "--keep-topics", description = "Do not delete the run's fresh topics at the end.")
        boolean keepTopics;
        @Option(names = "--url", paramLabel = "URL", description = {"With --token: drive an ingest-api already running in its own JVM",
                "(e.g. ./pinfeed dev's, http://127.0.0.1:8080 with $(./pinfeed token)) instead of one in-process;",
                "it publishes to the standard topics."})
        String url;
        @Option(names = "--token", paramLabel = "T", description = "The producer token for --url.")
        String token;

        Command(Run run) {
            this.run = run;
        }

        @Override
        public Integer call() throws Exception {
            return run.run(options());
        }

        Options options() {
            atLeast("--duration-s", durationS, 1);
            atLeast("--batch", batch, 1);
            atLeast("--clients", clients, 1);
            atLeast("--warmup-s", warmupS, 0);
            atLeast("--open-threads", openThreads, 1);
            if (singleDurationS != null) atLeast("--single-duration-s", singleDurationS, 1);
            atLeast("--create-percent", createPercent, 0);
            if (batch > 1000) throw Cli.usage(spec, "--batch must be at most 1000 (the contract's limit per request)");
            if (createPercent > 100) throw Cli.usage(spec, "--create-percent must be 0-100");
            if ((url == null) != (token == null)) throw Cli.usage(spec, "--url and --token go together");
            return new Options(durationS, batch, clients, warmupS, openThreads,
                    singleDurationS != null ? singleDurationS : Math.max(5, durationS / 2), createPercent, keepTopics, url, token);
        }

        private void atLeast(String option, int value, int min) {
            if (value < min) throw Cli.usage(spec, option + " must be >= " + min + ", is " + value);
        }
    }
}
