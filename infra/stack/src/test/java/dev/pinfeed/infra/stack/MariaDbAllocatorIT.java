package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.pinfeed.config.HostPort;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MariaDB server started as the stack starts one (on spare ports, never the shared one's) runs on jemalloc where it is
 * installed: the server itself names its allocator ({@code version_malloc_library}).
 */
class MariaDbAllocatorIT {

    @TempDir Path home;

    @Test
    void theServerRunsOnJemallocWhereItIsInstalled() throws Exception {
        assumeThat(Binaries.library(MariaDbServerSpec.JEMALLOC)).as("jemalloc is installed (Debian's redis-server brings it)").isPresent();
        HostPort address;
        try (ServerSocket free = new ServerSocket(0)) {
            address = new HostPort("127.0.0.1", free.getLocalPort());
        }
        try (SpareServer server = SpareServer.mariaDb(home, "allocator-it-mysql", address, 91, false)) {
            server.start();

            assertThat(server.sql("SHOW GLOBAL VARIABLES LIKE 'version_malloc_library'")).contains("jemalloc");
        }
    }
}
