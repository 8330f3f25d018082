package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Bad command lines fail with a one-line reason before anything is started or stopped. */
class StackCliTest {

    @Test
    void noCommandPrintsUsage() {
        assertThatThrownBy(() -> StackCli.run(new String[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("usage: stack");
    }

    @Test
    void unknownOptionIsNamed() {
        assertThatThrownBy(() -> StackCli.run(new String[] {"up", "--frsh"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown option --frsh");
    }

    @Test
    void unknownCommandIsNamed() {
        assertThatThrownBy(() -> StackCli.run(new String[] {"launch"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown command 'launch'");
    }

    @Test
    void serverCommandsNeedExactlyOneKnownServer() {
        assertThatThrownBy(() -> StackCli.run(new String[] {"restart"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes one server name");
        assertThatThrownBy(() -> StackCli.run(new String[] {"kill", "mysql009-master"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no server 'mysql009-master'");
    }
}
