package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stack ./pinfeed dev runs: its dev.<key> sizes win there, the test stack keeps the keys' own. */
class DevSizedStackTest {

    @TempDir Path tmp;

    private <S extends ServerSpec> S spec(PinfeedConfig config, String name, Class<S> type) {
        LocalStack stack = new LocalStack(new StackLayout(tmp, tmp.resolve(".pinfeed")), config, line -> {});
        return stack.specs().stream().filter(s -> s.name().equals(name)).map(type::cast).findFirst().orElseThrow();
    }

    private String hbaseHeap(PinfeedConfig config) {
        return spec(config, "hbase-primary", HBaseServerSpec.class).heap();
    }

    @Test
    void theDevStacksMariaDbAndKafkaServersAreSmallerThanTheTestStacks() {
        PinfeedConfig bundled = PinfeedConfig.bundledLocal();
        PinfeedConfig dev = LocalStack.devSized(bundled);

        assertThat(spec(bundled, "mysql001-replica", MariaDbServerSpec.class).sizes()).isEqualTo(MariaDbServerSpec.Sizes.DEFAULT);
        assertThat(spec(dev, "mysql001-replica", MariaDbServerSpec.class).sizes()).isEqualTo(new MariaDbServerSpec.Sizes("32m", 500));
        assertThat(spec(dev, "mysql001-replica", MariaDbServerSpec.class).memoryFlags())
                .containsExactly("--innodb-buffer-pool-size=32m", "--table-open-cache=500", "--table-definition-cache=500");
        assertThat(spec(bundled, "kafka", KafkaServerSpec.class).heap()).isEqualTo(KafkaServerSpec.DEFAULT_HEAP);
        assertThat(spec(dev, "kafka", KafkaServerSpec.class).heap()).isEqualTo("128m");
    }

    @Test
    void theSchemaRegistryRunsTheSerialCollectorAndTheOtherServersG1() throws IOException {
        for (String module : new String[] {"infra/kafka-server", "infra/schema-registry", "infra/hbase-server"}) {
            Files.createDirectories(tmp.resolve(module).resolve("target"));
            Files.writeString(tmp.resolve(module).resolve("target/classpath.txt"), "lib.jar"); // what command() names
        }
        PinfeedConfig bundled = PinfeedConfig.bundledLocal();
        for (PinfeedConfig config : new PinfeedConfig[] {bundled, LocalStack.devSized(bundled)}) {
            assertThat(spec(config, "schema-registry", SchemaRegistrySpec.class).command()).contains("-XX:+UseSerialGC").doesNotContain("-XX:+UseG1GC");
            assertThat(spec(config, "kafka", KafkaServerSpec.class).command()).contains("-XX:+UseG1GC").doesNotContain("-XX:+UseSerialGC");
            assertThat(spec(config, "hbase-primary", HBaseServerSpec.class).command()).contains("-XX:+UseG1GC").doesNotContain("-XX:+UseSerialGC");
        }
    }

    @Test
    void theDevStacksAppsRunTheSerialCollectorButItsTwoBacklogProcessorsAndTheTestStacksAppsG1() {
        PinfeedConfig bundled = PinfeedConfig.bundledLocal();
        PinfeedConfig dev = LocalStack.devSized(bundled);

        for (String app : new String[] {"ingest-api", "feed-service", "graph-processor", "materializer", "console"}) {
            assertThat(spec(dev, app, AppSpec.class).collector()).as(app).isEqualTo(JvmCollector.SERIAL);
        }
        for (String app : new String[] {"feed-worker", "fanout-streams"}) {
            assertThat(spec(dev, app, AppSpec.class).collector()).as(app).isEqualTo(JvmCollector.G1);
        }
        for (String app : new String[] {"ingest-api", "feed-service", "graph-processor", "materializer", "fanout-streams", "feed-worker", "console"}) {
            assertThat(spec(bundled, app, AppSpec.class).collector()).as(app).isEqualTo(JvmCollector.G1);
        }
        PinfeedConfig feedServiceOnG1 = dev.withOverrides(Map.of("feed-service.collector", "g1"));
        assertThat(spec(feedServiceOnG1, "feed-service", AppSpec.class).collector()).as("an app's own key wins").isEqualTo(JvmCollector.G1);
        assertThat(spec(feedServiceOnG1, "materializer", AppSpec.class).collector()).isEqualTo(JvmCollector.SERIAL);
    }

    @Test
    void aCollectorThatIsNeitherIsRefusedNamingItsKey() {
        PinfeedConfig config = PinfeedConfig.bundledLocal().withOverrides(Map.of("stack.apps.collector", "zgc"));
        assertThatThrownBy(() -> new LocalStack(new StackLayout(tmp, tmp.resolve(".pinfeed")), config, line -> {}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("stack.apps.collector must be g1 or serial: 'zgc'");
        PinfeedConfig app = PinfeedConfig.bundledLocal().withOverrides(Map.of("feed-worker.collector", "Serial"));
        assertThatThrownBy(() -> new LocalStack(new StackLayout(tmp, tmp.resolve(".pinfeed")), app, line -> {}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("feed-worker.collector must be g1 or serial: 'Serial'");
    }

    @Test
    void aTableCacheOutsideMariaDbsRangeIsRefusedNamingItsKey() {
        PinfeedConfig config = PinfeedConfig.bundledLocal().withOverrides(Map.of("stack.mysql.table-cache", "100"));

        assertThatThrownBy(() -> spec(config, "mysql001-master", MariaDbServerSpec.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stack.mysql.table-cache must be from 400 to 8000: 100");
    }

    @Test
    void aBufferPoolThatIsNoSizeIsRefusedNamingItsKey() {
        PinfeedConfig config = PinfeedConfig.bundledLocal().withOverrides(Map.of("stack.mysql.buffer-pool", "64 MB"));

        assertThatThrownBy(() -> spec(config, "mysql001-master", MariaDbServerSpec.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stack.mysql.buffer-pool must be a buffer pool size like 256m or 1g: '64 MB'");
    }

    @Test
    void theDevStacksHBaseServersGetTheDevHeapAndTheTestStacksTheirOwn() {
        PinfeedConfig bundled = PinfeedConfig.bundledLocal();

        assertThat(hbaseHeap(bundled)).isEqualTo(HBaseServerSpec.DEFAULT_HEAP);
        assertThat(hbaseHeap(LocalStack.devSized(bundled))).isEqualTo("640m");
        assertThat(spec(bundled, "hbase-standby", HBaseServerSpec.class).heap()).isEqualTo(HBaseServerSpec.DEFAULT_HEAP);
        assertThat(spec(LocalStack.devSized(bundled), "hbase-standby", HBaseServerSpec.class).heap()).isEqualTo("448m");
    }

    @Test
    void theStandbysHeapIsThePrimarysUnlessItHasItsOwn() {
        PinfeedConfig same = PinfeedConfig.bundledLocal().withOverrides(Map.of("stack.hbase.heap", "1g"));
        PinfeedConfig own = same.withOverrides(Map.of("stack.hbase.standby.heap", "600m"));

        assertThat(spec(same, "hbase-standby", HBaseServerSpec.class).heap()).isEqualTo("1g");
        assertThat(spec(own, "hbase-standby", HBaseServerSpec.class).heap()).isEqualTo("600m");
        assertThat(spec(own, "hbase-primary", HBaseServerSpec.class).heap()).isEqualTo("1g");
        assertThatThrownBy(() -> spec(same.withOverrides(Map.of("stack.hbase.standby.heap", "half")), "hbase-standby", HBaseServerSpec.class))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stack.hbase.standby.heap");
    }

    @Test
    void aKeyWithoutADevSizeKeepsItsValueUnderDev() {
        PinfeedConfig config = PinfeedConfig.bundledLocal().withOverrides(Map.of("stack.hbase.heap", "1g", "materializer.heap", "2g"));

        PinfeedConfig dev = LocalStack.devSized(config);

        assertThat(dev.require("materializer.heap")).isEqualTo("2g");
        assertThat(dev.require("stack.hbase.heap")).as("dev.stack.hbase.heap wins over the key").isEqualTo("640m");
    }

    @Test
    void anHBaseHeapThatIsNoHeapSizeIsRefusedNamingItsKey() {
        PinfeedConfig config = PinfeedConfig.bundledLocal().withOverrides(Map.of("stack.hbase.heap", "big"));

        assertThatThrownBy(() -> hbaseHeap(config)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stack.hbase.heap must be a heap size like 256m or 1g: 'big'");
    }
}
