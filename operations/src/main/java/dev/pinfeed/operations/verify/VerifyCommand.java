package dev.pinfeed.operations.verify;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.operations.OperationsCli;
import dev.pinfeed.operations.verify.canonical.VerifyCanonicalCommand;
import dev.pinfeed.operations.verify.index.VerifyIndexCommand;
import dev.pinfeed.operations.verify.pools.VerifyPoolsCommand;
import dev.pinfeed.operations.verify.graph.VerifyGraphCommand;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed verify VIEW [--repair]}: a view against its oracle; exit 0 when they agree, 1 when not. */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Compares a view with its oracle (the topics it is built from), prints a summary and the first differences; exit 1 on differences.",
        subcommands = {VerifyCanonicalCommand.class, VerifyGraphCommand.class, VerifyIndexCommand.class, VerifyPoolsCommand.class})
public final class VerifyCommand implements Callable<Integer> {

    @ParentCommand OperationsCli root;
    @Spec CommandSpec spec;

    public PinfeedConfig config() {
        return root.config();
    }

    /** The CLI's root: who stops and starts the processors a repair holds. */
    public OperationsCli root() {
        return root;
    }

    @Override
    public Integer call() {
        throw Cli.usage(spec, "say what to verify: " + String.join(", ", spec.subcommands().keySet()));
    }
}
