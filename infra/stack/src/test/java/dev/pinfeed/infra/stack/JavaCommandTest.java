package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JavaCommandTest {

    @Test
    void everyJvmTrimsItsNativeHeapWhereTheJdkCan() {
        assertThat(JavaCommand.footprint(true)).containsExactly("-Xms64m", "-XX:G1PeriodicGCInterval=60000",
                "-Djdk.nio.maxCachedBufferSize=262144", "-XX:TrimNativeHeapInterval=5000");
        assertThat(JavaCommand.footprint(false)).as("a JDK before 17.0.9 would refuse to start on the flag")
                .containsExactly("-Xms64m", "-XX:G1PeriodicGCInterval=60000", "-Djdk.nio.maxCachedBufferSize=262144");
    }

    @Test
    void anOptionIsKnownOnlyIfThisJvmHasIt() {
        assertThat(JavaCommand.hasVmOption("MaxHeapSize")).isTrue();
        assertThat(JavaCommand.hasVmOption("NoSuchOptionAnywhere")).isFalse();
        if (Runtime.version().feature() == 17) {
            assertThat(JavaCommand.hasVmOption(JavaCommand.TRIM_OPTION)).as("backported to 17.0.9").isEqualTo(Runtime.version().update() >= 9);
        }
    }
}
