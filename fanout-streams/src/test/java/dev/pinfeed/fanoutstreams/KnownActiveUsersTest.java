package dev.pinfeed.fanoutstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KnownActiveUsersTest {

    @Test
    void aUserIsKnownActiveUpToAndIncludingHisTime() {
        KnownActiveUsers known = new KnownActiveUsers(10);
        assertThat(known.isActive(7, 100)).isFalse();
        known.activeUntil(7, 500);
        assertThat(known.isActive(7, 100)).isTrue();
        assertThat(known.isActive(7, 500)).isTrue();
        assertThat(known.isActive(7, 501)).isFalse();
        assertThat(known.isActive(8, 100)).isFalse();
    }

    @Test
    void aLaterTimeExtendsAnEarlierOneNeverShortensIt() {
        KnownActiveUsers known = new KnownActiveUsers(10);
        known.activeUntil(7, 500);
        known.activeUntil(7, 300);
        assertThat(known.isActive(7, 400)).isTrue();
        known.activeUntil(7, 900);
        assertThat(known.isActive(7, 800)).isTrue();
    }

    @Test
    void aCollisionOnlyForgetsTheEarlierUser() {
        KnownActiveUsers known = new KnownActiveUsers(1); // two slots: of three users, two share one
        for (long u = 1; u <= 3; u++) known.activeUntil(u, 1_000);
        int remembered = 0;
        for (long u = 1; u <= 3; u++) if (known.isActive(u, 10)) remembered++;
        assertThat(remembered).isBetween(1, 2);
        assertThat(known.isActive(3, 10)).as("the last one written is remembered").isTrue();
    }

    @Test
    void slotBitsAreBounded() {
        assertThatThrownBy(() -> new KnownActiveUsers(0)).hasMessageContaining("1..30");
        assertThatThrownBy(() -> new KnownActiveUsers(31)).hasMessageContaining("1..30");
    }

    @Test
    void aSavedCopyBringsBackTheEntriesStillRunningWithTheirTimes(@TempDir Path dir) throws IOException {
        KnownActiveUsers known = new KnownActiveUsers(10);
        known.activeUntil(7, 500);
        known.activeUntil(8, 2_000);
        known.activeUntil(9, 150); // over by the time of the save: not written
        Path file = dir.resolve("known");
        assertThat(known.save(file, 1_000, 200)).isEqualTo(2);

        KnownActiveUsers restarted = new KnownActiveUsers(12); // another size: entries are placed again
        assertThat(restarted.load(file, 1_000, 600)).as("7's time ran out before the load").isEqualTo(1);
        assertThat(restarted.isActive(8, 2_000)).isTrue();
        assertThat(restarted.isActive(8, 2_001)).isFalse();
        assertThat(restarted.isActive(7, 100)).isFalse();
        assertThat(restarted.isActive(9, 100)).isFalse();
        assertThat(Files.exists(dir.resolve("known.tmp"))).as("written aside, then moved over").isFalse();
    }

    @Test
    void aCopyOfAnotherWindowIsRefusedAndNothingIsTaken(@TempDir Path dir) throws IOException {
        KnownActiveUsers known = new KnownActiveUsers(10);
        known.activeUntil(7, 5_000);
        Path file = dir.resolve("known");
        known.save(file, 30 * 86_400_000L, 0);

        KnownActiveUsers shorter = new KnownActiveUsers(10);
        assertThatThrownBy(() -> shorter.load(file, 7 * 86_400_000L, 0)).isInstanceOf(IOException.class).hasMessageContaining("window");
        assertThat(shorter.isActive(7, 100)).as("a longer window's times could keep an inactive user in").isFalse();
    }

    @Test
    void noCopyIsAnEmptyStartAndABrokenOneIsRefused(@TempDir Path dir) throws IOException {
        KnownActiveUsers known = new KnownActiveUsers(10);
        assertThat(known.load(dir.resolve("missing"), 1_000, 0)).isZero();

        Path garbage = dir.resolve("garbage");
        Files.write(garbage, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        assertThatThrownBy(() -> known.load(garbage, 1_000, 0)).isInstanceOf(IOException.class).hasMessageContaining("not a copy");

        KnownActiveUsers full = new KnownActiveUsers(10);
        for (long u = 1; u <= 50; u++) full.activeUntil(u, 9_000);
        Path file = dir.resolve("known");
        full.save(file, 1_000, 0);
        byte[] bytes = Files.readAllBytes(file);
        Path cut = dir.resolve("cut");
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 9));
        assertThatThrownBy(() -> known.load(cut, 1_000, 0)).isInstanceOf(IOException.class).hasMessageContaining("truncated");
    }
}
