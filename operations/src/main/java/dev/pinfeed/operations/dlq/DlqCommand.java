package dev.pinfeed.operations.dlq;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.operations.OperationsCli;
import dev.pinfeed.operations.kafka.TopicRanges;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ./pinfeed dlq list|show|redrive|purge}: the dead letters of {@code dead-letter.topic} (default
 * {@value DeadLetters#TOPIC}) for an operator: counted, shown one by one, sent back to their source topics after
 * a fix (once each: the redrive log {@code dead-letter.redrives-topic}), and purged.
 */
@Command(name = "dlq", mixinStandardHelpOptions = true,
        description = "Dead letters: list them, show one, redrive them to their source topics after a fix, purge old ones.",
        subcommands = {DlqListCommand.class, DlqShowCommand.class, DlqRedriveCommand.class, DlqPurgeCommand.class})
public final class DlqCommand implements Callable<Integer> {

    @ParentCommand OperationsCli root;
    @Spec CommandSpec spec;

    private final Clock clock = Clock.systemUTC();

    PinfeedConfig config() {
        return root.config();
    }

    Clock clock() {
        return clock;
    }

    String topic() {
        return DeadLetters.topic(config());
    }

    String redrivesTopic() {
        return DeadLetters.redrivesTopic(config());
    }

    /** The redrive log's entries for this dead-letter topic; none, with a note, when the log topic does not exist. */
    Map<DeadLetterId, RedriveLog.Entry> redrivesIfAny(TopicRanges ranges, PrintWriter err) {
        if (!ranges.exists(redrivesTopic())) {
            err.println("note: no redrive log " + redrivesTopic() + " (./pinfeed provision creates it): nothing counts as redriven");
            return Map.of();
        }
        return RedriveLog.read(ranges, redrivesTopic(), topic());
    }

    /** A reason as typed, checked against the reasons processors dead-letter with (null stays null). */
    static String reason(String typed) {
        if (typed == null || DeadLetters.REASONS.contains(typed)) return typed;
        throw Cli.unknown("reason", typed, DeadLetters.REASONS);
    }

    @Override
    public Integer call() {
        throw Cli.usage(spec, "say what to do: " + String.join(", ", spec.subcommands().keySet()));
    }
}
