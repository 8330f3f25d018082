package dev.pinfeed.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code K.file} / {@code PINFEED_<K>_FILE} secrets and the key listing by prefix. */
class SecretFilesTest {

    @TempDir
    Path dir;

    private Path secret(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content);
    }

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) p.setProperty(keyValues[i], keyValues[i + 1]);
        return p;
    }

    @Test
    void aFileKeyGivesTheFilesContentWithoutItsTrailingLineBreak() throws Exception {
        Path pw = secret("pw", " s3cr et \n");
        PinfeedConfig config = PinfeedConfig.of(props("mysql.password.file", pw.toString()));

        assertThat(config.mysqlPassword()).isEqualTo(" s3cr et ");
        assertThat(config.require("mysql.password")).isEqualTo(" s3cr et ");
    }

    @Test
    void theEnvironmentsFileFormCountsAsTheEnvironment() throws Exception {
        Path pw = secret("pw", "from-env-file\r\n");
        PinfeedConfig config = new PinfeedConfig(props("redis.password", "from-file"),
                Map.of("PINFEED_REDIS_PASSWORD_FILE", pw.toString()), new Properties(), "t");

        assertThat(config.find("redis.password")).contains("from-env-file");
    }

    @Test
    void aHigherSourceWinsWhicheverFormEitherUses() throws Exception {
        Path low = secret("low", "file-secret");
        Path high = secret("high", "system-secret");

        // system direct > env file > properties-file file
        PinfeedConfig directOverFile = new PinfeedConfig(props("k.file", low.toString()),
                Map.of("PINFEED_K_FILE", low.toString()), props("k", "system-direct"), "t");
        assertThat(directOverFile.find("k")).contains("system-direct");

        // system file > env direct
        PinfeedConfig fileOverDirect = new PinfeedConfig(props("k", "file-direct"), Map.of("PINFEED_K", "env-direct"),
                props("k.file", high.toString()), "t");
        assertThat(fileOverDirect.find("k")).contains("system-secret");

        // env direct > properties-file file
        PinfeedConfig envOverFile = new PinfeedConfig(props("k.file", low.toString()), Map.of("PINFEED_K", "env-direct"),
                new Properties(), "t");
        assertThat(envOverFile.find("k")).contains("env-direct");
    }

    @Test
    void oneSourceGivingAKeyBothWaysIsRefused() throws Exception {
        Path pw = secret("pw", "x");
        PinfeedConfig config = PinfeedConfig.of(props("mysql.password", "a", "mysql.password.file", pw.toString()));

        assertThatThrownBy(config::mysqlPassword).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mysql.password.file");
    }

    @Test
    void anOverrideReplacesTheFileFormOfItsKey() throws Exception {
        Path pw = secret("pw", "from-file");
        PinfeedConfig config = new PinfeedConfig(new Properties(), Map.of(), props("redis.password.file", pw.toString()), "t");

        assertThat(config.with("redis.password", "direct").find("redis.password")).contains("direct");
    }

    @Test
    void aMissingSecretFileNamesKeyAndPathAndNeverTheSecret() {
        Path missing = dir.resolve("absent");
        PinfeedConfig config = PinfeedConfig.of(props("mysql.password.file", missing.toString()));

        assertThatThrownBy(config::mysqlPassword).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mysql.password.file").hasMessageContaining(missing.toString());
    }

    @Test
    void anUnreadableSecretFileIsRefusedWithoutItsContent() throws Exception {
        Path notAFile = Files.createDirectory(dir.resolve("a-directory"));
        PinfeedConfig config = PinfeedConfig.of(props("redis.password.file", notAFile.toString()));

        assertThatThrownBy(() -> config.find("redis.password")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("redis.password.file").hasMessageContaining(notAFile.toString());
    }

    @Test
    void anUnsetKeySaysItMayBeGivenAsAFile() {
        assertThatThrownBy(() -> PinfeedConfig.of(new Properties()).require("mysql.user"))
                .hasMessageContaining("mysql.user.file").hasMessageContaining("PINFEED_MYSQL_USER");
    }

    @Test
    void withPrefixListsFileAndSystemKeysResolvedThroughEverySource() throws Exception {
        Path jaas = secret("jaas", "org.apache.kafka.common.security.scram.ScramLoginModule required;\n");
        Properties file = props("kafka.client.security.protocol", "SASL_SSL", "kafka.client.sasl.mechanism", "PLAIN",
                "kafka.client.sasl.jaas.config.file", jaas.toString(), "kafka.clientele", "not under the prefix",
                "kafka.producer.linger.ms", "5");
        Properties system = props("kafka.client.ssl.truststore.location", "/etc/ts.p12");
        PinfeedConfig config = new PinfeedConfig(file, Map.of("PINFEED_KAFKA_CLIENT_SASL_MECHANISM", "SCRAM-SHA-512",
                "PINFEED_KAFKA_CLIENT_CLIENT_DNS_LOOKUP", "env only: not listed"), system, "t");

        assertThat(config.withPrefix("kafka.client.")).containsExactlyInAnyOrderEntriesOf(Map.of(
                "security.protocol", "SASL_SSL",
                "sasl.mechanism", "SCRAM-SHA-512",
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;",
                "ssl.truststore.location", "/etc/ts.p12"));
        assertThat(config.withPrefix("kafka.admin.")).isEmpty();
    }
}
