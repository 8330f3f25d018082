package dev.pinfeed.redismasters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stack.Binaries;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.infra.stacktestkit.TestCertificates;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * {@code redis.tls}: on a redis-server of the test's own that speaks only TLS ({@link TestCertificates}: a CA
 * and a certificate for 127.0.0.1), pinfeed's clients get in with the CA in {@code redis.tls.truststore};
 * without that trust, under a name the certificate does not carry, or without TLS, they do not.
 */
class RedisTlsIT {

    private static final String PASSWORD = "tls-it-secret";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir Path dir;
    private Process server;
    private int port;
    private TestCertificates certificates;
    private Path truststore;

    @BeforeEach
    void startATlsOnlyServer() throws Exception {
        // No DNS name: "localhost" must not pass.
        certificates = TestCertificates.create(dir, "IP:127.0.0.1");
        truststore = certificates.truststore();
        port = ChildJvm.freePort();
        server = new ProcessBuilder(Binaries.find("redis-server"), "--port", "0", "--tls-port", Integer.toString(port),
                "--bind", "127.0.0.1", "--tls-cert-file", certificates.serverCertificate().toString(),
                "--tls-key-file", certificates.serverKey().toString(), "--tls-ca-cert-file", certificates.ca().toString(),
                "--tls-auth-clients", "no", "--requirepass", PASSWORD, "--dir", dir.toString(), "--save", "", "--appendonly", "no")
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                break;
            } catch (java.io.IOException notYet) {
                if (!server.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("redis-server with TLS did not start: " + Files.readString(dir.resolve("redis.log")));
                }
                Thread.sleep(50);
            }
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.destroy();
        if (!server.waitFor(10, TimeUnit.SECONDS)) server.destroyForcibly();
    }

    private PinfeedConfig config(String host, String... keyValues) {
        Properties p = new Properties();
        p.setProperty("redis.instances", "redis001");
        p.setProperty("redis.redis001.master", host + ":" + port);
        p.setProperty("redis.password", PASSWORD);
        for (int i = 0; i < keyValues.length; i += 2) p.setProperty(keyValues[i], keyValues[i + 1]);
        return PinfeedConfig.of(p);
    }

    private static void ping(PinfeedConfig config, String host, int port) {
        try (Jedis j = RedisClientSettings.from(config).plainConnection(new HostPort(host, port), TIMEOUT, TIMEOUT)) {
            j.ping();
        }
    }

    @Test
    void withTheServersCaInTheTrustStoreTheClientsGetIn() throws Exception {
        Path storePassword = Files.writeString(dir.resolve("store-pw"), certificates.truststorePassword() + "\n");
        PinfeedConfig config = config("127.0.0.1", "redis.tls", "true", "redis.tls.truststore", truststore.toString(),
                "redis.tls.truststore-password.file", storePassword.toString());

        try (RedisMasterClients clients = RedisMasterClients.open(RedisMasterConfig.fixed(config),
                new RedisMasterClients.Settings("redis-tls-it", TIMEOUT, TIMEOUT, 2))) {
            clients.get("redis001").set("tls-it:k", "over TLS");
            assertThat(clients.get("redis001").get("tls-it:k")).isEqualTo("over TLS");
        }
        try (Jedis plain = RedisClientSettings.from(config).plainConnection(new HostPort("127.0.0.1", port), TIMEOUT, TIMEOUT)) {
            assertThat(plain.get("tls-it:k")).isEqualTo("over TLS");
        }
    }

    @Test
    void withoutTrustInTheServersCaTheHandshakeFails() {
        PinfeedConfig config = config("127.0.0.1", "redis.tls", "true"); // the JVM's default trust: not the test's CA

        assertThatThrownBy(() -> ping(config, "127.0.0.1", port)).isInstanceOf(JedisConnectionException.class)
                .rootCause().hasMessageContaining("unable to find valid certification path");
    }

    @Test
    void aNameTheCertificateDoesNotCarryIsRefused() {
        PinfeedConfig config = config("localhost", "redis.tls", "true", "redis.tls.truststore", truststore.toString(),
                "redis.tls.truststore-password", certificates.truststorePassword());

        assertThatThrownBy(() -> ping(config, "localhost", port)).isInstanceOf(JedisConnectionException.class)
                .hasRootCauseInstanceOf(java.security.cert.CertificateException.class)
                .rootCause().hasMessageContaining("localhost");
    }

    @Test
    void aPlainClientCannotTalkToTheTlsPort() {
        PinfeedConfig config = config("127.0.0.1");

        assertThatThrownBy(() -> ping(config, "127.0.0.1", port)).isInstanceOf(JedisConnectionException.class);
    }
}
