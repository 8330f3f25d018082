package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.HostPort;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * The watchdog against a real server killed with kill -9: it sees the process gone and starts it
 * again, and the server answers with what it held (Redis, AOF everysec, on spare ports: never the
 * shared stack's).
 */
class WatchdogIT {

    @TempDir Path home;

    @Test
    void aServerKilledWithKill9IsStartedAgainAndAnswersWithItsData() throws Exception {
        HostPort address;
        try (ServerSocket free = new ServerSocket(0)) {
            address = new HostPort("127.0.0.1", free.getLocalPort());
        }
        SpareServer process = SpareServer.redis(home, "watchdog-it-redis", address, null);
        List<String> said = new ArrayList<>();
        Watchdog watchdog = new Watchdog(new Watchdog.Processes() {
            @Override
            public List<String> names() {
                return List.of(process.name());
            }

            @Override
            public boolean isRunning(String name) {
                return process.running().isPresent();
            }

            @Override
            public void start(String name) {
                try {
                    process.start();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }, Clock.systemUTC(), said::add);
        try {
            process.start();
            try (Jedis j = new Jedis(address.host(), address.port(), 5_000)) {
                j.set("before-the-kill", "kept");
                j.bgrewriteaof(); // on disk now, not only within AOF's one-second window
                Thread.sleep(1_500);
            }
            watchdog.check();
            long pid = process.running().orElseThrow().pid();

            process.kill();
            long killed = System.nanoTime();
            watchdog.check(); // the first look that misses it
            assertThat(process.running()).as("not started again at once").isEmpty();
            Thread.sleep(Duration.ofSeconds(2).toMillis());
            watchdog.check();
            System.err.printf("[WatchdogIT] running again %.1f s after the kill%n", (System.nanoTime() - killed) / 1e9);

            assertThat(process.running()).isPresent();
            assertThat(process.running().orElseThrow().pid()).isNotEqualTo(pid);
            try (Jedis j = new Jedis(address.host(), address.port(), 5_000)) {
                assertThat(j.get("before-the-kill")).isEqualTo("kept");
            }
            assertThat(said).singleElement().asString().startsWith(process.name() + " is not running any more: starting it again");
        } finally {
            watchdog.close();
            process.stop(Duration.ofSeconds(5));
        }
    }
}
