package dev.pinfeed.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class PinfeedConfigTest {

    @Test
    void environmentOverridesFileAndSystemPropertyOverridesEnvironment() {
        Properties file = new Properties();
        file.setProperty("kafka.bootstrap", "file:1");
        file.setProperty("schema.registry.url", "http://file");
        Properties sys = new Properties();
        sys.setProperty("schema.registry.url", "http://sys");
        PinfeedConfig config = new PinfeedConfig(file,
                Map.of("PINFEED_KAFKA_BOOTSTRAP", "env:2", "PINFEED_SCHEMA_REGISTRY_URL", "http://env"), sys, "t");

        assertThat(config.kafkaBootstrap()).isEqualTo("env:2");
        assertThat(config.schemaRegistryUrl()).isEqualTo("http://sys");
    }

    @Test
    void overridesWinOverEverySourceAndLeaveTheOriginalAsItWas() {
        Properties file = new Properties();
        file.setProperty("graph.redis.key-prefix", "file:");
        file.setProperty("kafka.bootstrap", "file:1");
        PinfeedConfig config = new PinfeedConfig(file, Map.of("PINFEED_GRAPH_REDIS_KEY_PREFIX", "env:"), new Properties(), "t");

        PinfeedConfig overridden = config.with(Map.of("graph.redis.key-prefix", "it:1:"));
        assertThat(overridden.get("graph.redis.key-prefix", "")).isEqualTo("it:1:");
        assertThat(overridden.kafkaBootstrap()).isEqualTo("file:1");
        assertThat(config.get("graph.redis.key-prefix", "")).isEqualTo("env:");
    }

    @Test
    void bundledLocalConfigDescribesEveryEndpoint() {
        PinfeedConfig config = PinfeedConfig.bundledLocal();
        assertThat(config.mysqlHosts()).extracting(PinfeedConfig.ReplicatedHost::name).containsExactly("mysql001", "mysql002");
        assertThat(config.redisInstances()).allSatisfy(h -> assertThat(h.replica()).isNotNull());
        assertThat(config.hbasePrimaryZookeeper()).isNotEqualTo(config.hbaseStandbyZookeeper());
    }

    @Test
    void missingOrMalformedKeysNameTheKey() {
        Properties p = new Properties();
        p.setProperty("mysql.hosts", "a");
        p.setProperty("mysql.a.master", "nohost");
        PinfeedConfig config = PinfeedConfig.of(p);
        assertThatThrownBy(config::kafkaBootstrap).hasMessageContaining("kafka.bootstrap").hasMessageContaining("PINFEED_KAFKA_BOOTSTRAP");
        assertThatThrownBy(config::mysqlHosts).hasMessageContaining("mysql.a.master");
    }

    @Test
    void hostPortRejectsGarbage() {
        assertThat(HostPort.parse("10.0.0.1:3306")).isEqualTo(new HostPort("10.0.0.1", 3306));
        assertThatThrownBy(() -> HostPort.parse("x:")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HostPort.parse("x:99999")).isInstanceOf(IllegalArgumentException.class);
    }
}
