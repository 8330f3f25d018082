package dev.pinfeed.operations.replay;

import static org.awaitility.Awaitility.await;

import dev.pinfeed.infra.stack.LocalStack;
import java.time.Duration;

/** What the replay ITs do to a processor the launcher runs: kill it with kill -9 in the middle of a replay. */
final class ReplayDrill {

    private ReplayDrill() {}

    /** The group's committed offsets, summed over its partitions. */
    static long committed(KafkaGroups kafka, String group) {
        return kafka.committed(group).values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Waits until the replay moved {@code group} back (below half of {@code before}) and the processor applied some of
     * it again, then kills {@code app} with kill -9 and starts it again a second later, as the dev watchdog would;
     * returns the group's committed offsets at the kill.
     */
    static long killMidReplay(KafkaGroups kafka, String group, long before, LocalStack apps, String app) {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50)).until(() -> committed(kafka, group) < before / 2);
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50)).until(() -> committed(kafka, group) > before / 10);
        long atKill = committed(kafka, group);
        apps.kill(app);
        sleep(1_000);
        apps.startServer(app);
        return atKill;
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
