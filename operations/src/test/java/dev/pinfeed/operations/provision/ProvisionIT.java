package dev.pinfeed.operations.provision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.operations.OperationsCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(StackExtension.class)
class ProvisionIT {

    @Test
    void provisioningTheRunningStackAgainChangesNothingAndSeedsTheLiveShardMap(TestStack stack) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OperationsCli.run(stack::config, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), "provision");
        assertThat(code).as("exit code; stderr: %s", err).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("provisioning against");
        try (CuratorFramework zk = CuratorClients.start(stack.config())) {
            String map = new String(zk.getData().forPath(MysqlShardConfig.ZNODE), StandardCharsets.UTF_8);
            assertThat(MysqlShardMap.parse(map, MysqlShardMap.HostAddresses.from(stack.config())).shardCount())
                    .isEqualTo(MysqlShardMap.from(stack.config()).shardCount());
        }
    }
}
