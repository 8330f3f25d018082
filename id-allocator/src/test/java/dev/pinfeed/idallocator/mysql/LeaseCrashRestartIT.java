package dev.pinfeed.idallocator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * No local ID is ever issued twice across processes and kill -9: two child JVMs lease from the
 * same MySQL counter at once and are killed mid-run, then a third starts on the same counter.
 */
@ExtendWith(StackExtension.class)
class LeaseCrashRestartIT {

    private static final int IDS_BEFORE_KILL = 2_000;
    private static final int BLOCK_SIZE = 37; // small: many leases and background prefetches per run

    @Test
    void killedAndRestartedProcessesNeverReissueAnId(TestStack stack) throws Exception {
        int shard = (int) (stack.freshId() % MysqlShardMap.from(stack.config()).shardCount());
        List<String> flags = new MysqlFixtures(stack.config()).systemPropertyFlags();

        Child first = Child.start(flags, shard);
        Child second = Child.start(flags, shard);
        Set<Long> beforeCrash = new HashSet<>();
        for (Child c : List.of(first, second)) {
            List<Long> ids = c.killAfterEnough();
            beforeCrash.addAll(ids);
            assertThat(new HashSet<>(ids)).as("one process never repeats itself").hasSameSizeAs(ids);
        }
        int printedBeforeCrash = first.printed.size() + second.printed.size();
        assertThat(beforeCrash).as("two live processes never share an id").hasSize(printedBeforeCrash);

        List<Long> afterRestart = Child.start(flags, shard).killAfterEnough();

        assertThat(afterRestart).doesNotContainAnyElementsOf(beforeCrash);
        long highestBeforeCrash = beforeCrash.stream().mapToLong(id -> ShardedId.decode(id).localId()).max().orElseThrow();
        assertThat(afterRestart).allSatisfy(id -> {
            assertThat(ShardedId.decode(id).shard()).isEqualTo(shard);
            assertThat(ShardedId.decode(id).localId()).as("restart leases past every block of the killed processes")
                    .isGreaterThan(highestBeforeCrash);
        });
    }

    private static final class Child {
        final Process process;
        final List<Long> printed = new ArrayList<>();
        final CountDownLatch enough = new CountDownLatch(1);
        final StringBuilder errors = new StringBuilder();
        private Thread stdoutReader;

        private Child(Process process) {
            this.process = process;
        }

        static Child start(List<String> flags, int shard) throws IOException {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.addAll(flags);
            command.add("-Dlog4j2.configurationFile=log4j2-id-cli.xml"); // logs to stderr; stdout carries only ids
            command.add(LeasingChild.class.getName());
            command.add(ObjectType.COMMENT.typeName());
            command.add(Integer.toString(shard));
            command.add(Integer.toString(BLOCK_SIZE));
            Child child = new Child(new ProcessBuilder(command).start());
            child.readInBackground();
            return child;
        }

        /** Waits until the child printed enough IDs, kill -9s it, returns everything it printed. */
        List<Long> killAfterEnough() throws Exception {
            boolean reached = enough.await(120, TimeUnit.SECONDS);
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
            stdoutReader.join(30_000); // drain what the child wrote before it died
            assertThat(reached).as("child printed %d ids; stderr:%n%s", IDS_BEFORE_KILL, errors).isTrue();
            synchronized (printed) {
                return new ArrayList<>(printed);
            }
        }

        private void readInBackground() {
            stdoutReader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        synchronized (printed) {
                            printed.add(Long.parseLong(line.trim()));
                            if (printed.size() >= IDS_BEFORE_KILL) enough.countDown();
                        }
                    }
                } catch (IOException | NumberFormatException e) {
                    synchronized (errors) {
                        errors.append("reader: ").append(e).append('\n');
                    }
                }
            });
            Thread err = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        synchronized (errors) {
                            errors.append(line).append('\n');
                        }
                    }
                } catch (IOException ignored) {
                    // the child was killed
                }
            });
            stdoutReader.setDaemon(true);
            err.setDaemon(true);
            stdoutReader.start();
            err.start();
        }
    }
}
