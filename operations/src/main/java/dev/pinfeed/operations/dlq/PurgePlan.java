package dev.pinfeed.operations.dlq;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * {@code dlq purge --before TIME}: per partition of the dead-letter topic, the records from its first offset up
 * to (not including) the first one dead-lettered at or after TIME go; Kafka's {@code deleteRecords} moves the
 * partition's start there.
 */
public record PurgePlan(String topic, Instant before, List<Partition> partitions) {

    /** {@code first}: the partition's start; {@code cut}: the first offset kept; {@code end}: after its last record. */
    public record Partition(int partition, long first, long cut, long end) {
        public long goes() {
            return Math.max(0, cut - first);
        }

        public long kept() {
            return end - Math.max(first, cut);
        }
    }

    public PurgePlan {
        partitions = partitions.stream().sorted((a, b) -> Integer.compare(a.partition(), b.partition())).toList();
    }

    public long goes() {
        return partitions.stream().mapToLong(Partition::goes).sum();
    }

    public String text(boolean dryRun) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%s: dead letters before %s%n", topic, before));
        for (Partition p : partitions) {
            if (p.goes() == 0) {
                sb.append(String.format(Locale.ROOT, "  partition %d: nothing goes, %d kept%n", p.partition(), p.kept()));
            } else {
                sb.append(String.format(Locale.ROOT, "  partition %d: offsets %d..%d go (%d), %d kept%n", p.partition(), p.first(),
                        p.cut() - 1, p.goes(), p.kept()));
            }
        }
        if (goes() == 0) sb.append("nothing to purge\n");
        else if (dryRun) sb.append("dry run: ").append(DeadLetterView.deadLetters(goes())).append(" would be purged; nothing was deleted\n");
        else sb.append("purged ").append(DeadLetterView.deadLetters(goes())).append('\n');
        return sb.toString();
    }
}
