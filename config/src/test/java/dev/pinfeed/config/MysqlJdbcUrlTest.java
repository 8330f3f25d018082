package dev.pinfeed.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link PinfeedConfig#mysqlJdbcUrl}: the URL per {@code mysql.tls}. */
class MysqlJdbcUrlTest {

    private static final HostPort HOST = new HostPort("db1.internal", 3306);

    private static PinfeedConfig config(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) p.setProperty(keyValues[i], keyValues[i + 1]);
        return PinfeedConfig.of(p);
    }

    @Test
    void withoutTlsTheUrlIsTodaysPlainOne() {
        String expected = "jdbc:mysql://db1.internal:3306/?useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true";
        assertThat(config().mysqlJdbcUrl(HOST)).isEqualTo(expected);
        assertThat(config("mysql.tls", "off").mysqlJdbcUrl(HOST)).isEqualTo(expected);
    }

    @Test
    void onRequiresTlsAndNeverAllowsPublicKeyRetrieval() {
        assertThat(config("mysql.tls", "on").mysqlJdbcUrl(HOST))
                .isEqualTo("jdbc:mysql://db1.internal:3306/?sslMode=REQUIRED&rewriteBatchedStatements=true");
    }

    @Test
    void verifyWithoutATrustStoreUsesTheJvmsTrust() {
        assertThat(config("mysql.tls", "verify").mysqlJdbcUrl(HOST))
                .isEqualTo("jdbc:mysql://db1.internal:3306/?sslMode=VERIFY_IDENTITY&rewriteBatchedStatements=true");
    }

    @Test
    void verifyWithATrustStoreNamesItAsAFileUrlAndItsPasswordEncoded(@TempDir Path dir) throws Exception {
        Path password = Files.writeString(dir.resolve("ts-pw"), "p&ss=w rd\n");
        String url = config("mysql.tls", "verify", "mysql.tls.truststore", "/etc/pinfeed/mysql-ca.p12",
                "mysql.tls.truststore-password.file", password.toString()).mysqlJdbcUrl(HOST);

        assertThat(url).isEqualTo("jdbc:mysql://db1.internal:3306/?sslMode=VERIFY_IDENTITY"
                + "&trustCertificateKeyStoreUrl=file%3A%2F%2F%2Fetc%2Fpinfeed%2Fmysql-ca.p12"
                + "&trustCertificateKeyStorePassword=p%26ss%3Dw+rd&rewriteBatchedStatements=true");
        assertThat(url).doesNotContain("allowPublicKeyRetrieval");
    }

    @Test
    void aTrustStoreGivenAsAUrlStaysAsItIs() {
        assertThat(config("mysql.tls", "verify", "mysql.tls.truststore", "file:/etc/ca.jks").mysqlJdbcUrl(HOST))
                .contains("&trustCertificateKeyStoreUrl=file%3A%2Fetc%2Fca.jks&");
    }

    @Test
    void anUnknownModeIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> config("mysql.tls", "true").mysqlJdbcUrl(HOST)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mysql.tls").hasMessageContaining("true");
    }
}
