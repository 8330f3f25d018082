package dev.pinfeed.operations.verify.canonical;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.canonicalstore.mysql.CanonicalRepair;
import dev.pinfeed.clikit.Interruption;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.materializer.MaterializerTopics;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.operations.replay.KafkaGroups;
import dev.pinfeed.operations.replay.ProcessorHold;
import dev.pinfeed.operations.replay.ReplayView;
import dev.pinfeed.operations.verify.GroupSettle;
import dev.pinfeed.operations.verify.VerifyCommand;
import dev.pinfeed.processorruntime.KafkaClients;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.avro.specific.SpecificRecord;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ./pinfeed verify canonical [--repair]}: the canonical store against the topics it is built from. Without
 * {@code --repair} the materializer keeps running: the command waits until it applied what was read, and rows
 * that differ are checked again after the events that arrived meanwhile (at most {@value #ROUNDS} rounds), so only
 * lasting differences are reported. With {@code --repair} the materializer is held stopped, the fix of each
 * difference written ({@link CanonicalRepair}), the store verified again, and the materializer started again.
 */
@Command(name = "canonical", mixinStandardHelpOptions = true, description = "The canonical MySQL store against its topics.")
public final class VerifyCanonicalCommand implements Callable<Integer> {

    static final int ROUNDS = 3;

    @ParentCommand VerifyCommand verify;
    @Spec CommandSpec spec;

    @Option(names = "--users-topic") String users;
    @Option(names = "--boards-topic") String boards;
    @Option(names = "--pins-topic") String pins;
    @Option(names = "--likes-topic") String likes;
    @Option(names = "--comments-topic") String comments;
    @Option(names = "--interests-topic") String interests;
    @Option(names = "--max-printed", defaultValue = "50") int maxPrinted;
    @Option(names = "--repair") boolean repair;
    @Option(names = "--json") boolean json;
    @Option(names = "--settle-timeout", defaultValue = "PT60S") Duration settleTimeout;
    @Option(names = "--processors") String processorsMode;

    @Override
    public Integer call() throws Exception {
        PinfeedConfig config = verify.config();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Progress.Mode mode = Progress.mode(json);
        PrintWriter progressOut = mode == Progress.Mode.JSON ? out : err;
        Clock clock = Clock.systemUTC();
        MaterializerTopics d = MaterializerTopics.from(config);
        MaterializerTopics topics = new MaterializerTopics(users != null ? users : d.users(), boards != null ? boards : d.boards(),
                pins != null ? pins : d.pins(), likes != null ? likes : d.likes(), comments != null ? comments : d.comments(),
                interests != null ? interests : d.interests());
        ReplayView view = ReplayView.of("canonical", config);
        String group = view.groupIds().get(0);
        CanonicalVerifier verifier = new CanonicalVerifier(topics);
        AvroEventDeserializer decoder = AvroEventDeserializer.from(config);
        try (KafkaGroups kafka = new KafkaGroups(Admin.create(KafkaClients.admin(config)));
             Interruption interruption = Interruption.install(err, Duration.ofSeconds(30), () -> repair
                     ? "fixes written so far stay (each is idempotent); run ./pinfeed verify canonical --repair again"
                     : "nothing was changed; run ./pinfeed verify canonical again");
             CuratorFramework zk = CuratorClients.connected(config, 20);
             MysqlShardConfig shardMap = MysqlShardConfig.watch(zk, config);
             ShardDataSources sources = ShardDataSources.from(config, shardMap, "pinfeed-verify", 4, Map.of());
             ShardedDb db = new ShardedDb(sources)) {
            ProcessorHold hold = new ProcessorHold(view, verify.root().processors(processorsMode, err), kafka, false, clock,
                    line -> say(progressOut, mode, line), interruption::requested);
            try (hold) {
                if (repair && !hold.stop("verify canonical --repair (pid " + ProcessHandle.current().pid() + ")")) return Cli.INTERRUPTED;
                Map<TopicPartition, Long> end = read(config, topics, Map.of(), verifier, decoder, progressOut, mode, clock);
                if (!repair) settle(kafka, group, end, progressOut, mode, clock);
                CanonicalVerifier.Report report = verifier.compare(db);
                Set<String> lasting = keys(report);
                for (int round = 1; !repair && !lasting.isEmpty() && round < ROUNDS && !interruption.requested(); round++) {
                    // Events that arrived while the rows were read may explain a difference: apply them, wait, look again;
                    // a difference counts only if every round saw it (a producer writing meanwhile makes new passing ones).
                    end = read(config, topics, end, verifier, decoder, progressOut, mode, clock);
                    settle(kafka, group, end, progressOut, mode, clock);
                    report = verifier.compare(db);
                    lasting.retainAll(keys(report));
                    report = report.only(lasting);
                }
                print(out, topics, report);
                if (!repair || report.clean()) return report.clean() ? 0 : 1;
                int fixed = CanonicalRepair.apply(db, report.differences());
                out.printf("repaired: %d rows written or deleted; verifying again%n", fixed);
                CanonicalVerifier.Report after = verifier.compare(db);
                print(out, topics, after);
                return after.clean() ? 0 : 1;
            }
        }
    }

    private static Set<String> keys(CanonicalVerifier.Report report) {
        Set<String> keys = new HashSet<>();
        report.differences().forEach(d -> keys.add(d.table() + " " + d.key()));
        return keys;
    }

    private static Map<TopicPartition, Long> read(PinfeedConfig config, MaterializerTopics topics, Map<TopicPartition, Long> from,
                                                  CanonicalVerifier verifier, AvroEventDeserializer decoder, PrintWriter progressOut,
                                                  Progress.Mode mode, Clock clock) {
        try (Progress progress = Progress.start(progressOut, mode, "reading " + String.join(", ", topics.all()), -1, "events", clock)) {
            Map<TopicPartition, Long> end = TopicHistory.read(config, topics.all(), from, (topic, r) -> {
                SpecificRecord event;
                try {
                    event = r.value() == null ? null : decoder.deserialize(topic, r.value());
                } catch (RuntimeException e) {
                    event = null;
                }
                if (event == null) verifier.undecodable();
                else verifier.add(topic, event);
                progress.advance(1);
                progress.tick();
            });
            progress.done("");
            return end;
        }
    }

    private void settle(KafkaGroups kafka, String group, Map<TopicPartition, Long> end, PrintWriter progressOut, Progress.Mode mode,
                        Clock clock) throws InterruptedException {
        GroupSettle.Result r = GroupSettle.await(kafka, group, end, settleTimeout, clock);
        if (r == GroupSettle.Result.BEHIND) {
            say(progressOut, mode, "the materializer (" + group + ") has not applied everything read within " + settleTimeout.toSeconds()
                    + " s: differences may be events still in flight");
        }
    }

    private static void say(PrintWriter progressOut, Progress.Mode mode, String line) {
        progressOut.println(mode == Progress.Mode.JSON ? "{\"step\":" + Progress.quote(line) + "}" : "[pinfeed] " + line);
        progressOut.flush();
    }

    private void print(PrintWriter out, MaterializerTopics topics, CanonicalVerifier.Report r) {
        out.printf("canonical store vs %s: %d events", topics.all(), r.events());
        if (!r.skipped().isEmpty()) out.printf(" (not applied, dead-lettered by the materializer: %s)", r.skipped());
        out.println();
        if (r.neverApplicable() > 0) {
            out.printf("%d events refer to rows no event creates (missing-reference: the materializer dead-letters them)%n", r.neverApplicable());
        }
        out.printf("rows expected %d, stored %d%n", r.expectedRows(), r.storedRows());
        Map<String, List<ComparableRows.Difference>> byTable = new TreeMap<>();
        for (ComparableRows.Difference diff : r.differences()) byTable.computeIfAbsent(diff.table(), t -> new ArrayList<>()).add(diff);
        byTable.forEach((table, diffs) -> {
            out.printf("%s: %d differences%n", table, diffs.size());
            diffs.stream().limit(maxPrinted).forEach(diff -> out.println("  " + diff));
            if (diffs.size() > maxPrinted) out.printf("  ... %d more%n", diffs.size() - maxPrinted);
        });
        out.printf("%d differences%n", r.differences().size());
        out.flush();
    }
}
