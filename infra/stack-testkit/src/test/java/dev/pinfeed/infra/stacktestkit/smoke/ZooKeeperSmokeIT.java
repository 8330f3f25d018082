package dev.pinfeed.infra.stacktestkit.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(StackExtension.class)
class ZooKeeperSmokeIT {

    @Test
    void aWatcherSeesAZnodeChange(TestStack stack) throws Exception {
        String path = "/it/" + stack.uniqueName("smoke");
        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        try (CuratorFramework zk = CuratorClients.start(stack.config());
             CuratorCache cache = CuratorCache.build(zk, path)) {
            zk.create().creatingParentsIfNeeded().forPath(path, bytes("v1"));
            cache.listenable().addListener((type, oldData, data) -> {
                if (data != null) seen.add(type + ":" + new String(data.getData(), StandardCharsets.UTF_8));
            });
            cache.start();
            assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo("NODE_CREATED:v1");
            zk.setData().forPath(path, bytes("v2"));
            assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo("NODE_CHANGED:v2");
            zk.delete().forPath(path);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
