package dev.pinfeed.infra.stacktestkit.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

@ExtendWith(StackExtension.class)
class RedisSmokeIT {

    @Test
    void aWriteSurvivesKillNineThroughTheAppendOnlyFileAndReachesTheReplica(TestStack stack) {
        PinfeedConfig.ReplicatedHost instance = stack.config().redisInstances().get(stack.config().redisInstances().size() - 1);
        String key = stack.keyPrefix("smoke-aof") + "k";
        try (Jedis master = jedis(instance.master())) {
            master.set(key, "durable");
        }
        try (Jedis replica = jedis(instance.replica())) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(replica.get(key)).isEqualTo("durable"));
        }
        // appendfsync everysec: let one fsync pass, then crash the server with no chance to save.
        await().pollDelay(Duration.ofMillis(1_500)).until(() -> true);
        String server = instance.name() + "-master";
        stack.servers().kill(server);
        stack.servers().startServer(server);
        try (Jedis master = jedis(instance.master())) {
            assertThat(master.get(key)).isEqualTo("durable");
            assertThat(master.configGet("appendonly")).containsEntry("appendonly", "yes");
            // The only RDB rule is hourly (seed 004's BGSAVE): none ran in these seconds, so the key came back through the AOF.
            assertThat(master.configGet("save")).containsEntry("save", "3600 1");
        }
    }

    private static Jedis jedis(HostPort hp) {
        return new Jedis(hp.host(), hp.port());
    }
}
