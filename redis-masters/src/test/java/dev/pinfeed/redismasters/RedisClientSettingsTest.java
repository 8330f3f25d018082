package dev.pinfeed.redismasters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.JedisClientConfig;

/** {@link RedisClientSettings}: what each key puts into a connection's client configuration, and the refusals. */
class RedisClientSettingsTest {

    private static RedisClientSettings settings(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) p.setProperty(keyValues[i], keyValues[i + 1]);
        return RedisClientSettings.from(PinfeedConfig.of(p));
    }

    private static JedisClientConfig clientConfig(RedisClientSettings s) {
        return s.clientConfig("name", Duration.ofSeconds(1), Duration.ofSeconds(2), true);
    }

    @Test
    void withoutKeysAConnectionIsPlainAndAnonymous() {
        JedisClientConfig c = clientConfig(settings());
        assertThat(c.getUser()).isNull();
        assertThat(c.getPassword()).isNull();
        assertThat(c.isSsl()).isFalse();
        assertThat(c.getClientName()).isEqualTo("name");
        assertThat(c.getConnectionTimeoutMillis()).isEqualTo(1000);
        assertThat(c.getSocketTimeoutMillis()).isEqualTo(2000);
    }

    @Test
    void userPasswordAndTlsReachTheConnection(@TempDir Path dir) throws Exception {
        Path truststore = Files.writeString(dir.resolve("redis-ca.p12"), "read when a connection opens");
        JedisClientConfig c = clientConfig(settings("redis.user", "pinfeed", "redis.password", "pw", "redis.tls", "true",
                "redis.tls.truststore", truststore.toString(), "redis.tls.truststore-password", "tspw"));
        assertThat(c.getUser()).isEqualTo("pinfeed");
        assertThat(c.getPassword()).isEqualTo("pw");
        assertThat(c.isSsl()).isTrue();
        assertThat(c.getSslOptions()).isNotNull();
    }

    @Test
    void aPasswordAloneAuthenticatesTheDefaultUser() {
        JedisClientConfig c = clientConfig(settings("redis.password", "pw"));
        assertThat(c.getUser()).isNull();
        assertThat(c.getPassword()).isEqualTo("pw");
    }

    @Test
    void invalidCombinationsAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> settings("redis.tls", "yes")).isInstanceOf(IllegalStateException.class).hasMessageContaining("'redis.tls'");
        assertThatThrownBy(() -> settings("redis.user", "pinfeed")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'redis.user'").hasMessageContaining("redis.password");
        assertThatThrownBy(() -> settings("redis.tls.truststore", "/ca.p12")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'redis.tls.truststore'");
        assertThatThrownBy(() -> settings("redis.tls", "true", "redis.tls.truststore", "/no/such/ca.p12"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'redis.tls.truststore'");
    }

    @Test
    void redisCliGetsThePasswordThroughItsEnvironmentOnlyAndTheDescriptionNeverShowsIt() {
        Map<String, String> env = new HashMap<>();
        RedisClientSettings s = settings("redis.user", "pinfeed", "redis.password", "pw-123", "redis.tls", "true");

        assertThat(s.redisCliArguments(env)).containsExactly("--user", "pinfeed", "--tls");
        assertThat(env).containsEntry("REDISCLI_AUTH", "pw-123");
        assertThat(s.toString()).doesNotContain("pw-123").contains("pinfeed").contains("TLS");
        assertThat(settings().redisCliArguments(env = new HashMap<>())).isEmpty();
        assertThat(env).isEmpty();
    }
}
