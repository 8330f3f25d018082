package dev.pinfeed.operations.dlq;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.TimeArgument;
import dev.pinfeed.processorruntime.KafkaClients;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed dlq purge --before TIME}: Kafka's deleteRecords up to the first dead letter at or after TIME, per partition. */
@Command(name = "purge", mixinStandardHelpOptions = true,
        description = {"Deletes the dead letters before TIME: per partition, Kafka's deleteRecords up to the first offset dead-lettered",
                "at or after TIME (offsetsForTimes); prints per partition what goes."})
final class DlqPurgeCommand implements Callable<Integer> {

    @ParentCommand DlqCommand dlq;
    @Spec CommandSpec spec;

    @Option(names = "--before", required = true, paramLabel = "TIME", description = "purge what was dead-lettered before TIME: " + TimeArgument.FORMS)
    String before;
    @Option(names = "--dry-run", description = "print what would go, delete nothing") boolean dryRun;

    @Override
    public Integer call() throws InterruptedException {
        Instant cutoff = TimeArgument.parse(before, dlq.clock());
        String topic = dlq.topic();
        PrintWriter out = spec.commandLine().getOut();
        try (Admin admin = Admin.create(KafkaClients.admin(dlq.config()))) {
            List<TopicPartition> partitions = partitions(admin, topic);
            Map<TopicPartition, Long> first = offsets(admin, partitions, OffsetSpec.earliest());
            Map<TopicPartition, Long> end = offsets(admin, partitions, OffsetSpec.latest());
            Map<TopicPartition, Long> at = offsets(admin, partitions, OffsetSpec.forTimestamp(cutoff.toEpochMilli()));
            List<PurgePlan.Partition> rows = new ArrayList<>();
            Map<TopicPartition, RecordsToDelete> delete = new HashMap<>();
            for (TopicPartition tp : partitions) {
                long cut = at.get(tp) < 0 ? end.get(tp) : at.get(tp); // -1: nothing at or after the cutoff, all of it goes
                PurgePlan.Partition row = new PurgePlan.Partition(tp.partition(), first.get(tp), cut, end.get(tp));
                rows.add(row);
                if (row.goes() > 0) delete.put(tp, RecordsToDelete.beforeOffset(cut));
            }
            PurgePlan plan = new PurgePlan(topic, cutoff, rows);
            if (!dryRun && !delete.isEmpty()) admin.deleteRecords(delete).all().get(60, TimeUnit.SECONDS);
            out.print(plan.text(dryRun));
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka did not purge " + topic + ": " + Cli.firstLine(e), e);
        } finally {
            out.flush();
        }
        return Cli.OK;
    }

    private static List<TopicPartition> partitions(Admin admin, String topic) throws InterruptedException, ExecutionException, TimeoutException {
        try {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
            return d.partitions().stream().map(TopicPartitionInfo::partition).sorted().map(p -> new TopicPartition(topic, p)).toList();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) throw new IllegalStateException("no dead-letter topic " + topic);
            throw e;
        }
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, List<TopicPartition> partitions, OffsetSpec spec)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetSpec> query = new HashMap<>();
        for (TopicPartition tp : partitions) query.put(tp, spec);
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> found = admin.listOffsets(query).all().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, Long> out = new HashMap<>();
        found.forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }
}
