package dev.pinfeed.mysqlshards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stack.Binaries;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.infra.stacktestkit.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mysql.tls} against a MariaDB server of the test's own with TLS ({@link TestCertificates}: a
 * certificate for 127.0.0.1 only) and an account that requires it: {@code on} and {@code verify} with
 * the CA encrypt; {@code verify} refuses a server its trust store does not vouch for or a name the
 * certificate lacks; {@code off} stays plain.
 */
class MysqlTlsIT {

    private static final String USER = "pf_tls";
    private static final String PASSWORD = "tls-it-pw";

    @TempDir static Path dir;
    private static Process server;
    private static int port;
    private static TestCertificates certificates;

    @BeforeAll
    static void startAServerWithTls() throws Exception {
        certificates = TestCertificates.create(dir, "IP:127.0.0.1");
        Path data = Files.createDirectories(dir.resolve("data"));
        Path socket = dir.resolve("mariadb.sock");
        String osUser = System.getProperty("user.name");
        run(Binaries.find("mariadb-install-db"), "--no-defaults", "--user=" + osUser, "--datadir=" + data,
                "--auth-root-authentication-method=socket", "--skip-test-db");
        port = ChildJvm.freePort();
        server = new ProcessBuilder(Binaries.find("mariadbd"), "--no-defaults", "--user=" + osUser, "--datadir=" + data,
                "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + socket, "--pid-file=" + dir.resolve("mariadbd.pid"),
                "--log-error=" + dir.resolve("mariadbd.err"), "--skip-name-resolve", "--skip-log-bin", "--innodb-buffer-pool-size=16M",
                "--ssl-cert=" + certificates.serverCertificate(), "--ssl-key=" + certificates.serverKey(), "--ssl-ca=" + certificates.ca())
                .redirectErrorStream(true).redirectOutput(dir.resolve("mariadbd.out").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<String> sql = List.of(Binaries.find("mariadb"), "--no-defaults", "--socket=" + socket, "-u" + osUser, "--batch", "-e",
                "CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "' REQUIRE SSL");
        while (exec(sql) != 0) {
            if (!server.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("mariadbd with TLS did not start: " + Files.readString(dir.resolve("mariadbd.err")));
            }
            Thread.sleep(200);
        }
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (server == null) return;
        server.destroy();
        if (!server.waitFor(30, TimeUnit.SECONDS)) server.destroyForcibly();
    }

    private static void run(String... command) throws Exception {
        if (exec(List.of(command)) != 0) throw new IllegalStateException(String.join(" ", command) + " failed");
    }

    private static int exec(List<String> command) throws Exception {
        Process p = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor();
    }

    private static PinfeedConfig config(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) p.setProperty(keyValues[i], keyValues[i + 1]);
        return PinfeedConfig.of(p);
    }

    /** The session's TLS cipher as the server sees it (empty: plain). */
    private static String cipher(PinfeedConfig config, String host) throws SQLException {
        try (Connection c = DriverManager.getConnection(config.mysqlJdbcUrl(new HostPort(host, port)), USER, PASSWORD);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
            rs.next();
            return rs.getString(2);
        }
    }

    @Test
    void verifyWithTheServersCaEncryptsAndChecksTheServer() throws Exception {
        Path storePassword = Files.writeString(dir.resolve("store-pw"), certificates.truststorePassword() + "\n");
        PinfeedConfig config = config("mysql.tls", "verify", "mysql.tls.truststore", certificates.truststore().toString(),
                "mysql.tls.truststore-password.file", storePassword.toString());

        assertThat(cipher(config, "127.0.0.1")).isNotBlank();
    }

    @Test
    void onEncryptsWithoutCheckingTheCertificate() throws Exception {
        assertThat(cipher(config("mysql.tls", "on"), "127.0.0.1")).isNotBlank();
    }

    @Test
    void verifyRefusesAServerItsTrustDoesNotVouchFor() {
        // The JVM's default trust: the test's CA is not in it.
        assertThatThrownBy(() -> cipher(config("mysql.tls", "verify"), "127.0.0.1")).isInstanceOf(SQLException.class)
                .rootCause().hasMessageContaining("trust anchors");
    }

    @Test
    void verifyRefusesANameTheCertificateLacks() {
        PinfeedConfig config = config("mysql.tls", "verify", "mysql.tls.truststore", certificates.truststore().toString(),
                "mysql.tls.truststore-password", certificates.truststorePassword());

        assertThatThrownBy(() -> cipher(config, "localhost")).isInstanceOf(SQLException.class)
                .rootCause().hasMessageContaining("Server identity verification failed");
    }

    @Test
    void offStaysPlainSoAnAccountRequiringTlsIsRefused() {
        assertThatThrownBy(() -> cipher(config("mysql.tls", "off"), "127.0.0.1")).isInstanceOf(SQLException.class)
                .hasMessageContaining("Access denied");
    }
}
