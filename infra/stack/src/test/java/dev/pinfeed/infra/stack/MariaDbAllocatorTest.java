package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MariaDbAllocatorTest {

    @Test
    void withJemallocInstalledTheServerStartsWithItPreloaded() {
        Path lib = Path.of("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2");

        assertThat(MariaDbServerSpec.allocator(Optional.of(lib))).containsExactly(Binaries.find("env"),
                "LD_PRELOAD=" + lib, "MALLOC_CONF=" + MariaDbServerSpec.JEMALLOC_CONF);
    }

    @Test
    void withoutJemallocTheServerStartsAsItIs() {
        assertThat(MariaDbServerSpec.allocator(Optional.empty())).isEmpty();
    }
}
