package dev.pinfeed.infra.stacktestkit.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

@ExtendWith(StackExtension.class)
class RedisSmokeIT {

    private PinfeedConfig config;

    @BeforeEach
    void connect(TestStack stack) {
        config = stack.config();
    }

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

    private Jedis jedis(HostPort hp) {
        return new Jedis(new HostAndPort(hp.host(), hp.port()), DefaultJedisClientConfig.builder()
                .password(config.find("redis.password").orElse(null)).autoNegotiateProtocol(false).build());
    }

    @Test
    void theStacksRedisRefusesAClientWithoutItsPassword(TestStack stack) {
        assertThat(config.find("redis.password")).as("the local stack's generated Redis password").isPresent();
        HostPort master = config.redisInstances().get(0).master();
        try (Jedis anonymous = new Jedis(master.host(), master.port())) {
            assertThatThrownBy(anonymous::ping).isInstanceOf(JedisDataException.class).hasMessageContaining("NOAUTH");
        }
        try (Jedis withPassword = jedis(master)) {
            assertThat(withPassword.ping()).isEqualTo("PONG");
        }
    }
}
