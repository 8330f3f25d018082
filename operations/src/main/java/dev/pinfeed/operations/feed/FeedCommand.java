package dev.pinfeed.operations.feed;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.operations.OperationsCli;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed feed ACTION}: operations on users' home feeds. */
@Command(name = "feed", mixinStandardHelpOptions = true, description = "Operations on users' home feeds: rebuild.",
        subcommands = FeedRebuildCommand.class)
public final class FeedCommand implements Callable<Integer> {

    @ParentCommand OperationsCli root;
    @Spec CommandSpec spec;

    public PinfeedConfig config() {
        return root.config();
    }

    @Override
    public Integer call() {
        throw Cli.usage(spec, "say what to do: " + String.join(", ", spec.subcommands().keySet()));
    }
}
