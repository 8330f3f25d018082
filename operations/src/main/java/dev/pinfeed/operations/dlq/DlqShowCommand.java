package dev.pinfeed.operations.dlq;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.operations.kafka.TopicRanges;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed dlq show ID}: one dead letter, all of it. */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = {"One dead letter: its id, time, processor, source, reason and error, whether it was redriven or failed again",
                "after a redrive, every header, the key, and the value decoded through the schema registry (else its first bytes in hex)."})
final class DlqShowCommand implements Callable<Integer> {

    @ParentCommand DlqCommand dlq;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "PARTITION:OFFSET in the dead-letter topic (dlq list --ids prints them)") String idText;
    @Option(names = "--json", description = "as one JSON object") boolean json;

    @Override
    public Integer call() {
        DeadLetterId id = DeadLetterId.parse(idText);
        PinfeedConfig config = dlq.config();
        PrintWriter out = spec.commandLine().getOut();
        try (TopicRanges ranges = TopicRanges.open(config)) {
            DeadLetterTopic topic = new DeadLetterTopic(ranges, dlq.topic());
            DeadLetter d = topic.fetch(List.of(id)).get(id);
            if (d == null) throw new IllegalStateException(topic.whyMissing(id));
            RedriveLog.Entry entry = dlq.redrivesIfAny(ranges, spec.commandLine().getErr()).get(id);
            AvroEventDeserializer avro = AvroEventDeserializer.from(config);
            Function<byte[], SpecificRecord> decoder = bytes -> avro.deserialize(String.valueOf(d.sourceTopic()), bytes);
            out.print(json ? DeadLetterView.json(topic.name(), d, entry, decoder) + System.lineSeparator()
                    : DeadLetterView.text(topic.name(), d, entry, decoder));
        }
        out.flush();
        return Cli.OK;
    }
}
