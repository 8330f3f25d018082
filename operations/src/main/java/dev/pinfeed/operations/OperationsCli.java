package dev.pinfeed.operations;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.operations.failover.FailoverCommand;
import dev.pinfeed.operations.feed.FeedCommand;
import dev.pinfeed.operations.provision.ProvisionCommand;
import dev.pinfeed.operations.verify.VerifyCommand;
import dev.pinfeed.processorruntime.ProcessMain;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The operators' commands: {@code ./pinfeed provision|failover|verify|replay|dlq|feed}. They work on whatever
 * deployment {@code PINFEED_CONFIG} names (the local stack by default). Nothing is read or connected before the
 * command line parsed, so {@code --help} and mistakes are free. Exit codes: 0 done (verify: no differences),
 * 1 failed (verify: differences found), 2 usage error; errors are one line on stderr.
 */
@Command(name = "pinfeed", mixinStandardHelpOptions = true, version = "pinfeed operations",
        description = "Operate a pinfeed deployment: provision, fail over, verify and repair, replay, dead letters, rebuild feeds.",
        subcommands = {ProvisionCommand.class, FailoverCommand.class, VerifyCommand.class, FeedCommand.class, CommandLine.HelpCommand.class})
public final class OperationsCli implements Callable<Integer> {

    @Spec CommandSpec spec;

    private final Supplier<PinfeedConfig> configSource;
    private PinfeedConfig config;

    OperationsCli(Supplier<PinfeedConfig> configSource) {
        this.configSource = configSource;
    }

    public static void main(String[] args) {
        ProcessMain.configureLogging();
        System.exit(run(PinfeedConfig::load, System.out, System.err, args));
    }

    /** Runs one command line against the deployment {@code config} names; returns the exit code. */
    public static int run(Supplier<PinfeedConfig> config, PrintStream out, PrintStream err, String... args) {
        CommandLine cmd = Cli.commandLine(new OperationsCli(config), out, err);
        HelpTexts.install(cmd);
        return Cli.execute(cmd, args);
    }

    /** The configuration, loaded on first use. */
    public synchronized PinfeedConfig config() {
        if (config == null) config = configSource.get();
        return config;
    }

    /** No command: the usage, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return Cli.USAGE;
    }
}
