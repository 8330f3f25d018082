package dev.pinfeed.operations.verify.canonical;

import dev.pinfeed.canonicalstore.CanonicalRows;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.materializer.MaterializerTopics;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.operations.verify.VerifyCommand;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.avro.specific.SpecificRecord;
import org.apache.curator.framework.CuratorFramework;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed verify canonical}: the canonical store against the topics it is built from. */
@Command(name = "canonical", mixinStandardHelpOptions = true,
        description = {"Reads the users, boards, pins and likes topics from offset 0 to their end (no consumer group),",
                "applies them to an in-memory reference model, reads the shards' rows of every object they name,",
                "and prints the differences per table. Rows of objects no event names are ignored.",
                "Exit 0 when there is none, 1 when there are."})
public final class VerifyCanonicalCommand implements Callable<Integer> {

    @ParentCommand VerifyCommand verify;
    @Spec CommandSpec spec;

    @Option(names = "--users-topic", description = "default: materializer.topic.users, else pinfeed.users.v1") String users;
    @Option(names = "--boards-topic", description = "default: materializer.topic.boards, else pinfeed.boards.v1") String boards;
    @Option(names = "--pins-topic", description = "default: materializer.topic.pins, else pinfeed.pins.v1") String pins;
    @Option(names = "--likes-topic", description = "default: materializer.topic.likes, else pinfeed.likes.v1") String likes;
    @Option(names = "--max-printed", defaultValue = "50", description = "differences printed per table (default ${DEFAULT-VALUE})") int maxPrinted;

    @Override
    public Integer call() throws Exception {
        PinfeedConfig config = verify.config();
        PrintWriter out = spec.commandLine().getOut();
        MaterializerTopics d = MaterializerTopics.from(config);
        MaterializerTopics topics = new MaterializerTopics(users != null ? users : d.users(), boards != null ? boards : d.boards(),
                pins != null ? pins : d.pins(), likes != null ? likes : d.likes());
        CanonicalVerifier verifier = new CanonicalVerifier(topics);
        AvroEventDeserializer decoder = new AvroEventDeserializer(new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(config.schemaRegistryUrl())));
        TopicHistory.read(config, topics.all(), (topic, r) -> {
            SpecificRecord event;
            try {
                event = r.value() == null ? null : decoder.deserialize(topic, r.value());
            } catch (RuntimeException e) {
                event = null;
            }
            if (event == null) verifier.undecodable();
            else verifier.add(topic, event);
        });
        CanonicalVerifier.Report report;
        try (CuratorFramework zk = CuratorClients.connected(config, 20);
             MysqlShardConfig shardMap = MysqlShardConfig.watch(zk, config);
             ShardDataSources sources = ShardDataSources.from(config, shardMap, "pinfeed-verify", 4, Map.of());
             ShardedDb db = new ShardedDb(sources)) {
            report = verifier.compare(db);
        }
        print(out, topics, report);
        return report.clean() ? 0 : 1;
    }

    private void print(PrintWriter out, MaterializerTopics topics, CanonicalVerifier.Report r) {
        out.printf("canonical store vs %s: %d events", topics.all(), r.events());
        if (!r.skipped().isEmpty()) out.printf(" (not applied, dead-lettered by the materializer: %s)", r.skipped());
        out.println();
        if (r.neverApplicable() > 0) {
            out.printf("%d events refer to rows no event creates (missing-reference: the materializer dead-letters them)%n", r.neverApplicable());
        }
        out.printf("rows expected %d, stored %d%n", r.expectedRows(), r.storedRows());
        Map<String, List<CanonicalRows.Difference>> byTable = new TreeMap<>();
        for (CanonicalRows.Difference diff : r.differences()) byTable.computeIfAbsent(diff.table(), t -> new ArrayList<>()).add(diff);
        byTable.forEach((table, diffs) -> {
            out.printf("%s: %d differences%n", table, diffs.size());
            diffs.stream().limit(maxPrinted).forEach(diff -> out.println("  " + diff));
            if (diffs.size() > maxPrinted) out.printf("  ... %d more%n", diffs.size() - maxPrinted);
        });
        out.printf("%d differences%n", r.differences().size());
        out.flush();
    }
}
