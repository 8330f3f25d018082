package dev.pinfeed.redismasters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stack.SpareServer;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * pinfeed's Redis clients authenticate as {@link RedisClientSettings} reads them from the configuration:
 * on a server of the test's own ({@link SpareServer}, a free port) that requires a password and knows an
 * ACL user, a client without credentials is refused, pinfeed's pooled and plain clients get in with the
 * password (from a {@code .file}) or as the ACL user.
 */
class RedisAuthIT {

    private static final String PASSWORD = "it-secret-5f3a";
    private static final String ACL_USER = "pinfeed";
    private static final String ACL_PASSWORD = "acl-pw-91c2";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir Path home;
    private SpareServer server;
    private HostPort address;

    @BeforeEach
    void startAServerThatRequiresAPassword() throws Exception {
        address = new HostPort("127.0.0.1", ChildJvm.freePort());
        server = SpareServer.redis(home, "redis-auth-it", address, null);
        server.start();
        try (Jedis admin = RedisClientSettings.none().plainConnection(address, TIMEOUT, TIMEOUT)) {
            admin.aclSetUser(ACL_USER, "on", ">" + ACL_PASSWORD, "~*", "+@all");
            admin.configSet("requirepass", PASSWORD);
        }
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private PinfeedConfig config(String... keyValues) {
        Properties p = new Properties();
        p.setProperty("redis.instances", "redis001");
        p.setProperty("redis.redis001.master", address.toString());
        for (int i = 0; i < keyValues.length; i += 2) p.setProperty(keyValues[i], keyValues[i + 1]);
        return PinfeedConfig.of(p);
    }

    private static RedisMasterClients pooled(PinfeedConfig config) {
        return RedisMasterClients.open(RedisMasterConfig.fixed(config), new RedisMasterClients.Settings("redis-auth-it", TIMEOUT, TIMEOUT, 2));
    }

    @Test
    void aClientWithoutCredentialsIsRefused() {
        try (Jedis anonymous = RedisClientSettings.from(config()).plainConnection(address, TIMEOUT, TIMEOUT)) {
            assertThatThrownBy(anonymous::ping).isInstanceOf(JedisAccessControlException.class).hasMessageContaining("NOAUTH");
        }
        try (RedisMasterClients clients = pooled(config())) {
            assertThatThrownBy(() -> clients.get("redis001").set("k", "v")).isInstanceOf(JedisDataException.class)
                    .hasMessageContaining("NOAUTH");
        }
    }

    @Test
    void thePasswordFromASecretFileGetsPinfeedsClientsIn() throws Exception {
        Path secret = Files.writeString(home.resolve("redis-password"), PASSWORD + "\n");
        PinfeedConfig config = config("redis.password.file", secret.toString());

        try (RedisMasterClients clients = pooled(config)) {
            clients.get("redis001").set("auth-it:password", "written");
            assertThat(clients.get("redis001").get("auth-it:password")).isEqualTo("written");
        }
        try (Jedis plain = RedisClientSettings.from(config).plainConnection(address, TIMEOUT, TIMEOUT)) {
            assertThat(plain.aclWhoAmI()).isEqualTo("default");
        }
    }

    @Test
    void anAclUserGetsInWithItsOwnPasswordAndAWrongOneIsRefused() {
        PinfeedConfig config = config("redis.user", ACL_USER, "redis.password", ACL_PASSWORD);

        try (RedisMasterClients clients = pooled(config)) {
            // The default user's password is another: only the ACL user's login can have written this.
            clients.get("redis001").set("auth-it:acl", "written");
            assertThat(clients.get("redis001").get("auth-it:acl")).isEqualTo("written");
        }
        try (Jedis plain = RedisClientSettings.from(config).plainConnection(address, TIMEOUT, TIMEOUT)) {
            assertThat(plain.aclWhoAmI()).isEqualTo(ACL_USER);
        }
        RedisClientSettings wrongPassword = RedisClientSettings.from(config("redis.user", ACL_USER, "redis.password", "not-it"));
        assertThatThrownBy(() -> {
            try (Jedis wrong = wrongPassword.plainConnection(address, TIMEOUT, TIMEOUT)) {
                wrong.ping();
            }
        }).isInstanceOf(JedisAccessControlException.class).hasMessageContaining("WRONGPASS");
    }

    @Test
    void redisCliGetsTheSameCredentialsWithoutThePasswordOnItsCommandLine() throws Exception {
        PinfeedConfig config = config("redis.user", ACL_USER, "redis.password", ACL_PASSWORD);
        ProcessBuilder cli = new ProcessBuilder();
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(dev.pinfeed.infra.stack.Binaries.find("redis-cli"),
                "-h", address.host(), "-p", Integer.toString(address.port())));
        command.addAll(RedisClientSettings.from(config).redisCliArguments(cli.environment()));
        command.addAll(java.util.List.of("ACL", "WHOAMI"));
        assertThat(command).doesNotContain(ACL_PASSWORD);

        Process p = cli.command(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertThat(p.waitFor()).isZero();
        assertThat(out).isEqualTo(ACL_USER);
    }
}
