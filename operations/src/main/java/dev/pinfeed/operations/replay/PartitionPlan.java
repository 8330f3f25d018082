package dev.pinfeed.operations.replay;

/**
 * What a replay does to one partition of one consumer group: where the group is ({@code current}, -1 when it
 * has no committed offset yet), where it is moved ({@code target}), and the end of the range to replay
 * ({@code end}: the {@code --to} offset, or the log end when the replay starts). A replay never moves a group
 * forward: a target past the current position would skip records nobody applied, so the group stays where it is.
 */
public record PartitionPlan(String group, String topic, int partition, long logStart, long logEnd, long current, long target,
                            long end) {

    /** Records the replay applies again (or, with {@code --to}, applies in the range). */
    public long records() {
        return Math.max(0, end - target);
    }

    /** True when the group's offset changes. */
    public boolean moves() {
        return current != target;
    }

    /**
     * The plan for one partition: {@code wanted} (the resolved {@code --from}) clamped to the log, and never
     * ahead of the group's committed offset; {@code to} is -1 for "to the log end".
     */
    static PartitionPlan of(String group, String topic, int partition, long logStart, long logEnd, long current, long wanted, long to) {
        long target = Math.max(logStart, Math.min(wanted, logEnd));
        if (current >= 0 && to < 0) target = Math.min(target, current);
        long end = to < 0 ? logEnd : Math.max(target, Math.min(to, logEnd));
        return new PartitionPlan(group, topic, partition, logStart, logEnd, current, target, end);
    }
}
