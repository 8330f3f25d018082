package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.PinfeedConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchdogTest {

    /** Processes that run or not as the test says; a start brings one up unless it is set to fail. */
    private static final class FakeProcesses implements Watchdog.Processes {
        final Set<String> running = new HashSet<>();
        final Set<String> failing = new HashSet<>();
        final List<String> starts = new ArrayList<>();

        @Override
        public List<String> names() {
            return List.of("kafka", "hbase-standby", "feed-worker");
        }

        @Override
        public boolean isRunning(String name) {
            return running.contains(name);
        }

        @Override
        public void start(String name) {
            starts.add(name);
            if (failing.contains(name)) throw new IllegalStateException(name + " not healthy after 120 s\nstack trace");
            running.add(name);
        }
    }

    private static final class TestClock extends Clock {
        Instant now = Instant.parse("2026-11-26T09:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    private final FakeProcesses processes = new FakeProcesses();
    private final TestClock clock = new TestClock();
    private final List<String> said = new ArrayList<>();
    private final Watchdog watchdog = new Watchdog(processes, clock, said::add);

    /** One watchdog look every 2 s, as ./pinfeed dev does. */
    private void check() {
        watchdog.check();
        clock.advance(Duration.ofSeconds(2));
    }

    @Test
    void aProcessThatDiedIsStartedAgainOnceTwoChecksInARowFoundItDown() {
        processes.running.addAll(List.of("kafka", "hbase-standby", "feed-worker"));
        check();
        processes.running.remove("hbase-standby"); // kill -9
        check();
        assertThat(processes.starts).as("not at the first check that misses it").isEmpty();
        check();
        assertThat(processes.starts).containsExactly("hbase-standby");
        assertThat(processes.running).contains("hbase-standby");
        assertThat(said).singleElement().asString().contains("hbase-standby is not running any more: starting it again")
                .contains("./pinfeed logs hbase-standby");
        check();
        check();
        assertThat(processes.starts).as("up again: left alone").hasSize(1);
    }

    @Test
    void aProcessThatNeverRanIsLeftAlone() {
        processes.running.addAll(List.of("kafka", "hbase-standby")); // feed-worker failed at start: the dev run said so
        for (int i = 0; i < 5; i++) check();
        assertThat(processes.starts).isEmpty();
        assertThat(said).isEmpty();
    }

    @Test
    void aProcessThatKeepsDyingIsStartedAgainAfterGrowingPausesUntilItStaysUp() {
        assertThat(List.of(1, 2, 3, 4, 5, 9).stream().map(Watchdog::pause).map(Duration::toSeconds).toList())
                .containsExactly(5L, 10L, 20L, 40L, 60L, 60L);
        processes.running.add("feed-worker");
        check();
        processes.running.remove("feed-worker");
        check();
        check();
        assertThat(processes.starts).hasSize(1);
        processes.running.remove("feed-worker"); // dies right after its restart
        check();
        check();
        assertThat(processes.starts).as("within the 5 s pause after the first restart").hasSize(1);
        check();
        assertThat(processes.starts).as("5 s after the first restart").hasSize(2);
        assertThat(said.get(said.size() - 1)).contains("(restart 2 in a row)");

        clock.advance(Watchdog.STABLE); // up a minute: its next death is a first one again
        check();
        processes.running.remove("feed-worker");
        check();
        check();
        assertThat(processes.starts).hasSize(3);
        assertThat(said.get(said.size() - 1)).doesNotContain("in a row");
    }

    @Test
    void aStartThatFailsIsReportedAndTriedAgainAfterThePause() {
        processes.running.add("kafka");
        check();
        processes.running.remove("kafka");
        processes.failing.add("kafka");
        check();
        check();
        assertThat(said).last().asString().isEqualTo("kafka did not come back (kafka not healthy after 120 s); next try in 5 s");
        check();
        check();
        assertThat(processes.starts).as("within the pause").hasSize(1);
        processes.failing.clear();
        check();
        assertThat(processes.starts).hasSize(2);
        assertThat(processes.running).contains("kafka");
    }

    @Test
    void aServerKilledOnPurposeIsHeldDownOutOfTheWatchdogsView(@TempDir Path tmp) {
        LocalStack stack = new LocalStack(new StackLayout(tmp, tmp.resolve("home")), PinfeedConfig.bundledLocal(), line -> {});
        assertThat(stack.watchdogView().names()).contains("redis001-replica", "hbase-standby", "feed-worker");
        stack.kill("redis001-replica"); // not running here: only the mark
        assertThat(stack.watchdogView().names()).doesNotContain("redis001-replica").contains("hbase-standby", "feed-worker");
    }

    @Test
    void afterCloseNothingIsStartedAgain() {
        processes.running.addAll(List.of("kafka", "hbase-standby", "feed-worker"));
        check();
        watchdog.close(); // the stack is being stopped
        processes.running.clear();
        check();
        check();
        assertThat(processes.starts).isEmpty();
    }
}
