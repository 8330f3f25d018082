package dev.pinfeed.operations;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stack.LocalStack;
import dev.pinfeed.operations.dlq.DlqCommand;
import dev.pinfeed.operations.failover.FailoverCommand;
import dev.pinfeed.operations.feed.FeedCommand;
import dev.pinfeed.operations.provision.ProvisionCommand;
import dev.pinfeed.operations.replay.LocalStackProcessors;
import dev.pinfeed.operations.replay.OperatorProcessors;
import dev.pinfeed.operations.replay.Processors;
import dev.pinfeed.operations.replay.ReplayCommand;
import dev.pinfeed.operations.backup.BackupCommand;
import dev.pinfeed.operations.shards.RedisShardsCommand;
import dev.pinfeed.operations.shards.ShardsCommand;
import dev.pinfeed.operations.verify.VerifyCommand;
import dev.pinfeed.processorruntime.ProcessMain;
import java.io.PrintStream;
import java.io.PrintWriter;
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
        subcommands = {ProvisionCommand.class, FailoverCommand.class, VerifyCommand.class, ReplayCommand.class, DlqCommand.class,
                FeedCommand.class, ShardsCommand.class, RedisShardsCommand.class, BackupCommand.class, CommandLine.HelpCommand.class})
public final class OperationsCli implements Callable<Integer> {

    @Spec CommandSpec spec;

    private final Supplier<PinfeedConfig> configSource;
    private final Processors processors;
    private PinfeedConfig config;

    OperationsCli(Supplier<PinfeedConfig> configSource) {
        this(configSource, null);
    }

    private OperationsCli(Supplier<PinfeedConfig> configSource, Processors processors) {
        this.configSource = configSource;
        this.processors = processors;
    }

    public static void main(String[] args) {
        ProcessMain.configureLogging();
        System.exit(run(PinfeedConfig::load, System.out, System.err, args));
    }

    /** Runs one command line against the deployment {@code config} names; returns the exit code. */
    public static int run(Supplier<PinfeedConfig> config, PrintStream out, PrintStream err, String... args) {
        return run(config, null, out, err, args);
    }

    /**
     * {@link #run} with the processes of the views stopped and started by {@code processors} (tests and embedders
     * that run processors of their own), whatever the configuration says.
     */
    public static int run(Supplier<PinfeedConfig> config, Processors processors, PrintStream out, PrintStream err, String... args) {
        OperationsCli root = new OperationsCli(config, processors);
        return execute(root, Cli.commandLine(root, out, err), args);
    }

    private static int execute(OperationsCli root, CommandLine cmd, String... args) {
        HelpTexts.install(cmd);
        root.self = cmd;
        return Cli.execute(cmd, args);
    }

    private CommandLine self;

    /** Runs another command line of this CLI (a replay's verification) with the same configuration and output. */
    public int runNested(String... args) {
        OperationsCli nested = new OperationsCli(this::config, processors);
        CommandLine cmd = new CommandLine(nested);
        cmd.setOut(self.getOut());
        cmd.setErr(self.getErr());
        cmd.setExitCodeExceptionMapper(self.getExitCodeExceptionMapper());
        cmd.setParameterExceptionHandler(self.getParameterExceptionHandler());
        cmd.setExecutionExceptionHandler(self.getExecutionExceptionHandler());
        nested.self = cmd;
        HelpTexts.install(cmd);
        return cmd.execute(args);
    }

    /**
     * Who stops and starts the processes of a view: {@code mode} local (the local stack's apps, {@code ./pinfeed dev}),
     * operator (a deployment this command does not run: it asks and watches the consumer groups), or null: local when
     * the configuration is the local stack's (no {@code PINFEED_CONFIG}), operator otherwise.
     */
    public Processors processors(String mode, PrintWriter out) {
        if (processors != null) return processors;
        boolean local = mode == null ? config().source().startsWith("classpath:") : mode.equals("local");
        return local ? new LocalStackProcessors(LocalStack.fromEnvironment(line -> {
            out.println("[pinfeed] " + line);
            out.flush();
        })) : new OperatorProcessors(out);
    }

    /** The pinfeed checkout the commands work in: {@code pinfeed.root}, else {@code PINFEED_ROOT}, else the working directory. */
    public static java.nio.file.Path home() {
        String root = System.getProperty("pinfeed.root", System.getenv("PINFEED_ROOT"));
        return java.nio.file.Path.of(root == null || root.isBlank() ? "." : root).toAbsolutePath().normalize();
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
