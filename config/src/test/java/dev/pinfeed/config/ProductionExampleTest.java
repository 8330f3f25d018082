package dev.pinfeed.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** infra/definitions/production.example.properties gives every app what it needs to start (deployment.md starts from it). */
class ProductionExampleTest {

    private static final Path EXAMPLE = Path.of(System.getProperty("user.dir")).resolve("../infra/definitions/production.example.properties")
            .normalize();

    @Test
    void everyHostAndInstanceHasItsAddressesAndEveryAppItsKeys() throws Exception {
        Properties file = new Properties();
        try (InputStream in = java.nio.file.Files.newInputStream(EXAMPLE)) {
            file.load(in);
        }
        PinfeedConfig example = PinfeedConfig.of(file); // the file alone: no PINFEED_* of the shell running the test

        assertThat(example.mysqlHosts()).hasSize(8).allSatisfy(h -> assertThat(h.replica()).isNotNull());
        assertThat(example.redisInstances()).allSatisfy(h -> assertThat(h.replica()).isNotNull());
        assertThat(example.find("ingest.tokens-file")).isPresent();
        assertThat(example.find("mysql.admin.user")).isPresent();
        // Secured connections: secrets only as files, TLS to every store, Kafka over SASL_SSL.
        for (String secret : new String[] {"mysql.password", "mysql.admin.password", "redis.password", "kafka.client.sasl.jaas.config",
                "schema.registry.basic-auth.password"}) {
            assertThat(file.getProperty(secret)).as(secret + " given directly").isNull();
            assertThat(file.getProperty(secret + PinfeedConfig.FILE_SUFFIX)).as(secret + PinfeedConfig.FILE_SUFFIX).startsWith("/");
        }
        assertThat(example.mysqlTls()).isEqualTo(PinfeedConfig.MysqlTls.VERIFY);
        assertThat(example.find("redis.tls")).contains("true");
        assertThat(example.find("kafka.client.security.protocol")).contains("SASL_SSL");
        // The registry's credentials go together: the user here, the password from a file (above).
        assertThat(example.find("schema.registry.basic-auth.user")).isPresent();
        for (String key : new String[] {"events.decode.max-record-bytes", "events.decode.max-string-bytes", "events.decode.max-collection-items"}) {
            assertThat(example.getInt(key, 0)).as(key).isPositive();
        }
        // Every processor's admin endpoint the local stack configures, the example configures too.
        Properties local = new Properties();
        try (InputStream in = PinfeedConfig.class.getResourceAsStream("/pinfeed-local.properties")) {
            local.load(in);
        }
        for (String key : local.stringPropertyNames()) {
            if (key.endsWith(".admin.http")) assertThat(example.hostPort(key)).as(key).isNotNull();
        }
    }
}
