package dev.pinfeed.loadharness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackConfigTest {

    @TempDir
    Path dir;

    @Test
    void aCheckoutWithAStacksRunDirectoryIsTheRootWhenNothingNamesOne() throws Exception {
        Files.createDirectories(dir.resolve(".pinfeed").resolve("run"));
        assertThat(StackConfig.rootFor(Optional.empty(), dir)).contains(dir);
    }

    @Test
    void aRunDirectoryNamedByConfigurationWins() throws Exception {
        Files.createDirectories(dir.resolve(".pinfeed").resolve("run"));
        assertThat(StackConfig.rootFor(Optional.of(Path.of("/elsewhere/run")), dir)).isEmpty();
    }

    @Test
    void aDirectoryWithoutAStackIsNoRoot() {
        assertThat(StackConfig.rootFor(Optional.empty(), dir)).isEmpty();
    }
}
