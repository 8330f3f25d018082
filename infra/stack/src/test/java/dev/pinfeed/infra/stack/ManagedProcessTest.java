package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pid counts as running only while /proc shows that very process running: not dead, not a zombie, not a reused pid. */
class ManagedProcessTest {

    @TempDir Path tmp;

    @Test
    void parsesStateAndStartTimeEvenWithParenthesesInTheName() {
        String stat = "4242 (java (x) y) Z 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 30 0 987654 123456 12 1844 0 0";
        assertThat(ProcStat.parse(stat)).isEqualTo(new ProcStat('Z', 987654));
        assertThat(ProcStat.parse(stat).runs()).isFalse();
    }

    @Test
    void aProcessKilledButNotYetReapedDoesNotCountAsRunning() throws Exception {
        // sh starts a sleeper in the background, prints its pid, then becomes a sleep that never reaps it:
        // once killed, the sleeper stays a zombie for as long as its parent lives.
        Process parent = new ProcessBuilder("sh", "-c", "sleep 300 & echo $!; exec sleep 300").start();
        try {
            // One line: the stream itself stays open as long as the sleepers live.
            long child = Long.parseLong(new java.io.BufferedReader(new java.io.InputStreamReader(parent.getInputStream())).readLine().trim());
            ManagedProcess managed = new ManagedProcess("sleeper", new StackLayout(tmp, tmp));
            managed.record(ProcessHandle.of(child).orElseThrow());
            assertThat(managed.running()).map(ProcessHandle::pid).contains(child);

            new ProcessBuilder("kill", "-9", Long.toString(child)).start().waitFor(10, TimeUnit.SECONDS);

            await().atMost(Duration.ofSeconds(30)).until(() -> ProcStat.of(child).map(ProcStat::state).orElse('?') == 'Z');
            assertThat(ProcessHandle.of(child).map(ProcessHandle::isAlive)).as("the JDK still sees the zombie alive").contains(true);
            assertThat(managed.running()).isEmpty();
            managed.kill(); // nothing to kill: returns at once instead of waiting for a reap that never comes
        } finally {
            parent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aReusedPidDoesNotCountAsRunning() throws Exception {
        ManagedProcess managed = new ManagedProcess("me", new StackLayout(tmp, tmp));
        long me = ProcessHandle.current().pid();
        long myStart = ProcStat.of(me).orElseThrow().startTicks();
        Files.createDirectories(managed.pidFile().getParent());

        Files.writeString(managed.pidFile(), me + " 0 " + (myStart - 1) + "\n");
        assertThat(managed.running()).isEmpty();

        Files.writeString(managed.pidFile(), me + " 0 " + myStart + "\n");
        assertThat(managed.running()).map(ProcessHandle::pid).contains(me);
    }

    @Test
    void aDeadPidOrAGarbledFileCountsAsNotRunning() throws Exception {
        ManagedProcess managed = new ManagedProcess("gone", new StackLayout(tmp, tmp));
        Process p = new ProcessBuilder("true").start();
        p.waitFor(10, TimeUnit.SECONDS);
        Files.createDirectories(managed.pidFile().getParent());
        Files.writeString(managed.pidFile(), p.pid() + " 0 1\n");
        assertThat(managed.running()).isEmpty();
        Files.writeString(managed.pidFile(), "not a pid\n");
        assertThat(managed.running()).isEmpty();
    }

    @Test
    void olderPidFilesWithoutStartTicksStillWork() throws Exception {
        ManagedProcess managed = new ManagedProcess("me", new StackLayout(tmp, tmp));
        ProcessHandle me = ProcessHandle.current();
        Files.createDirectories(managed.pidFile().getParent());
        Files.writeString(managed.pidFile(), me.pid() + " " + me.info().startInstant().orElseThrow().toEpochMilli() + "\n");
        assertThat(managed.running()).isPresent();
        Files.writeString(managed.pidFile(), me.pid() + " " + (me.info().startInstant().orElseThrow().toEpochMilli() - 60_000) + "\n");
        assertThat(managed.running()).isEmpty();
    }
}
