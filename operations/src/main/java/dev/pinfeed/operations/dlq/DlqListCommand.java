package dev.pinfeed.operations.dlq;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.TimeArgument;
import dev.pinfeed.operations.kafka.TopicRanges;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed dlq list}: the dead letters counted by processor, source topic and reason. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"Reads the dead-letter topic from its beginning (or --since) to its end as of the start, without a consumer group,",
                "and counts its dead letters by processor, source topic and reason, with the oldest and newest, how many were",
                "redriven and how many failed again after a redrive."})
final class DlqListCommand implements Callable<Integer> {

    @ParentCommand DlqCommand dlq;
    @Spec CommandSpec spec;

    @Option(names = "--since", paramLabel = "TIME", description = "only dead letters from TIME on: " + TimeArgument.FORMS) String since;
    @Option(names = "--reason", paramLabel = "R", description = "only this reason") String reason;
    @Option(names = "--processor", paramLabel = "P", description = "only this processor (its consumer group)") String processor;
    @Option(names = "--ids", description = "also one line per dead letter, with its id (for dlq show and dlq redrive --ids)") boolean ids;
    @Option(names = "--json", description = "the result as one JSON object") boolean json;

    @Override
    public Integer call() {
        Instant from = since == null ? null : TimeArgument.parse(since, dlq.clock());
        Selection selection = Selection.of(DlqCommand.reason(reason), processor, from);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (TopicRanges ranges = TopicRanges.open(dlq.config())) {
            DeadLetterTopic topic = new DeadLetterTopic(ranges, dlq.topic());
            DeadLetterTopic.Range range = topic.range(from);
            DeadLetterSummary summary = new DeadLetterSummary(topic.name(), selection, dlq.redrivesIfAny(ranges, err), ids);
            topic.read(range, err, dlq.clock(), summary::add);
            out.print(json ? summary.json() + System.lineSeparator() : summary.text());
        }
        out.flush();
        return Cli.OK;
    }
}
