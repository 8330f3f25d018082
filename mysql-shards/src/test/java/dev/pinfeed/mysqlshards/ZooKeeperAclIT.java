package dev.pinfeed.mysqlshards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.config.zookeeper.ZooKeeperAuth;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * ZooKeeper ACLs on the stack's application ZooKeeper, in a namespace of the test's own: the live shard map pinfeed
 * provisions with its credentials can be read by anyone and changed by pinfeed only; znodes from before are brought
 * under the same ACL.
 */
@ExtendWith(StackExtension.class)
class ZooKeeperAclIT {

    private static final String MAP = "/config/mysql-shards";

    @Test
    void onlyPinfeedChangesTheShardMapAnyoneReadsIt(TestStack stack) throws Exception {
        PinfeedConfig config = stack.config();
        String namespace = stack.uniqueName("acl");
        ZooKeeperAuth pinfeed = new ZooKeeperAuth("pinfeed", "s3cret-" + stack.uniqueName("pw"));
        try (CuratorFramework own = connected(config, namespace, Optional.of(pinfeed));
             CuratorFramework anonymous = connected(config, namespace, Optional.empty());
             CuratorFramework impostor = connected(config, namespace, Optional.of(new ZooKeeperAuth("pinfeed", "guess")))) {
            MysqlShardMap map = MysqlShardMap.from(config);
            MysqlShardConfig.provision(own, MAP, map, MysqlShardMap.HostAddresses.from(config));

            byte[] read = anonymous.getData().forPath(MAP);
            assertThat(MysqlShardMap.parse(new String(read, StandardCharsets.UTF_8), MysqlShardMap.HostAddresses.from(config)))
                    .as("anyone may read the map").isEqualTo(map);
            byte[] hijack = "{\"ranges\":[]}".getBytes(StandardCharsets.UTF_8);
            for (CuratorFramework outsider : new CuratorFramework[] {anonymous, impostor}) {
                assertThatThrownBy(() -> outsider.setData().forPath(MAP, hijack)).isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> outsider.delete().forPath(MAP)).isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> outsider.create().forPath("/config/other", hijack)).isInstanceOf(KeeperException.NoAuthException.class);
            }
            assertThat(own.getData().forPath(MAP)).as("nothing changed").isEqualTo(read);
            own.setData().forPath(MAP, read); // pinfeed itself may

            // A znode from before authentication was configured: open until secured, then pinfeed's like the rest.
            anonymous.usingNamespace(null).create().forPath("/" + namespace + "-legacy", hijack);
            try (CuratorFramework legacyOwn = connected(config, namespace + "-legacy", Optional.of(pinfeed));
                 CuratorFramework legacyAnonymous = connected(config, namespace + "-legacy", Optional.empty())) {
                legacyAnonymous.setData().forPath("/", hijack);
                assertThat(CuratorClients.secure(legacyOwn, pinfeed)).isEqualTo(1);
                assertThat(CuratorClients.secure(legacyOwn, pinfeed)).as("already secured").isZero();
                assertThatThrownBy(() -> legacyAnonymous.setData().forPath("/", hijack)).isInstanceOf(KeeperException.NoAuthException.class);
                legacyOwn.delete().forPath("/");
            }
            own.delete().deletingChildrenIfNeeded().forPath("/");
        }
    }

    @Test
    void theLocalStacksLiveMapsArePinfeedsOnly(TestStack stack) throws Exception {
        PinfeedConfig config = stack.config();
        assertThat(ZooKeeperAuth.from(config)).as("the local stack's ZooKeeper credentials").isPresent();
        try (CuratorFramework anonymous = connected(config, config.appZookeeperNamespace(), Optional.empty())) {
            byte[] live = anonymous.getData().forPath(MAP);
            assertThat(live).isNotEmpty();
            assertThatThrownBy(() -> anonymous.setData().forPath(MAP, live)).isInstanceOf(KeeperException.NoAuthException.class);
            for (String child : anonymous.getChildren().forPath("/config")) {
                assertThatThrownBy(() -> anonymous.delete().forPath("/config/" + child)).as(child).isInstanceOf(KeeperException.NoAuthException.class);
            }
        }
    }

    private static CuratorFramework connected(PinfeedConfig config, String namespace, Optional<ZooKeeperAuth> auth) throws InterruptedException {
        CuratorFramework zk = CuratorClients.start(config.appZookeeper(), namespace, auth);
        assertThat(zk.blockUntilConnected(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return zk;
    }
}
