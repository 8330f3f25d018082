package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BinariesTest {

    @TempDir Path root;

    @Test
    void aLibraryIsFoundInTheMultiarchDirectoryBeforeTheRootItself() throws Exception {
        Path multiarch = Files.createFile(Files.createDirectories(root.resolve("usr/lib/x86_64-linux-gnu")).resolve("libjemalloc.so.2"));
        Files.createFile(root.resolve("usr/lib/libjemalloc.so.2"));

        assertThat(Binaries.library("libjemalloc.so.2", root.resolve("usr/lib"))).contains(multiarch);
    }

    @Test
    void aLibraryOnlyInARootIsFoundThere() throws Exception {
        Path plain = Files.createFile(Files.createDirectories(root.resolve("usr/lib64")).resolve("libjemalloc.so.2"));

        assertThat(Binaries.library("libjemalloc.so.2", root.resolve("usr/lib"), root.resolve("usr/lib64"))).contains(plain);
    }

    @Test
    void aLibraryInstalledNowhereIsAbsent() throws Exception {
        Files.createDirectories(root.resolve("usr/lib/x86_64-linux-gnu"));

        assertThat(Binaries.library("libjemalloc.so.2", root.resolve("usr/lib"), root.resolve("no/such/dir"))).isEqualTo(Optional.empty());
    }
}
