package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stack ./pinfeed dev runs: its dev.<key> sizes win there, the test stack keeps the keys' own. */
class DevSizedStackTest {

    @TempDir Path tmp;

    private String hbaseHeap(PinfeedConfig config) {
        LocalStack stack = new LocalStack(new StackLayout(tmp, tmp.resolve(".pinfeed")), config, line -> {});
        return stack.specs().stream().filter(s -> s.name().equals("hbase-primary")).map(s -> ((HBaseServerSpec) s).heap())
                .findFirst().orElseThrow();
    }

    @Test
    void theDevStacksHBaseServersGetTheDevHeapAndTheTestStacksTheirOwn() {
        PinfeedConfig bundled = PinfeedConfig.bundledLocal();

        assertThat(hbaseHeap(bundled)).isEqualTo(HBaseServerSpec.DEFAULT_HEAP);
        assertThat(hbaseHeap(LocalStack.devSized(bundled))).isEqualTo("768m");
    }

    @Test
    void aKeyWithoutADevSizeKeepsItsValueUnderDev() {
        PinfeedConfig config = PinfeedConfig.bundledLocal().withOverrides(Map.of("stack.hbase.heap", "1g", "feed-service.heap", "2g"));

        PinfeedConfig dev = LocalStack.devSized(config);

        assertThat(dev.require("feed-service.heap")).isEqualTo("2g");
        assertThat(dev.require("stack.hbase.heap")).as("dev.stack.hbase.heap wins over the key").isEqualTo("768m");
    }

    @Test
    void anHBaseHeapThatIsNoHeapSizeIsRefusedNamingItsKey() {
        PinfeedConfig config = PinfeedConfig.bundledLocal().withOverrides(Map.of("stack.hbase.heap", "big"));

        assertThatThrownBy(() -> hbaseHeap(config)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stack.hbase.heap must be a heap size like 256m or 1g: 'big'");
    }
}
