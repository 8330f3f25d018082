package dev.pinfeed.config.zookeeper;

import dev.pinfeed.config.PinfeedConfig;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.data.ACL;

/**
 * The one way pinfeed connects to its application ZooKeeper ({@code app.zookeeper}, namespace
 * {@code app.zookeeper.namespace}): the shard maps live there. Retries with backoff; a session
 * survives a ZooKeeper hiccup of up to 15 s. With {@link ZooKeeperAuth} configured it authenticates and
 * creates every znode writable by pinfeed only; {@link #secure} brings older znodes under that ACL.
 */
public final class CuratorClients {

    private CuratorClients() {}

    /** A started client (not yet necessarily connected). */
    public static CuratorFramework start(PinfeedConfig config) {
        return start(config.appZookeeper(), config.appZookeeperNamespace(), ZooKeeperAuth.from(config));
    }

    public static CuratorFramework start(String connectString, String namespace, Optional<ZooKeeperAuth> auth) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder().connectString(connectString).namespace(namespace)
                .retryPolicy(new ExponentialBackoffRetry(200, 5)).sessionTimeoutMs(15_000).connectionTimeoutMs(5_000);
        auth.ifPresent(a -> builder.authorization("digest", a.digestCredentials()).aclProvider(new ACLProvider() {
            @Override
            public List<ACL> getDefaultAcl() {
                return a.acl();
            }

            @Override
            public List<ACL> getAclForPath(String path) {
                return a.acl();
            }
        }));
        CuratorFramework client = builder.build();
        client.start();
        return client;
    }

    /**
     * Puts {@code auth}'s ACL on every znode of {@code client}'s namespace (the namespace's own node included)
     * that lacks it: znodes created before authentication was configured, or by a client without it. Returns
     * how many changed.
     */
    public static int secure(CuratorFramework client, ZooKeeperAuth auth) throws Exception {
        List<ACL> acl = auth.acl();
        CuratorFramework root = client.usingNamespace(null);
        String top = "/" + client.getNamespace();
        if (root.checkExists().forPath(top) == null) return 0;
        int changed = 0;
        Deque<String> paths = new ArrayDeque<>(List.of(top));
        while (!paths.isEmpty()) {
            String path = paths.pop();
            if (!new HashSet<>(root.getACL().forPath(path)).equals(new HashSet<>(acl))) {
                root.setACL().withACL(acl).forPath(path);
                changed++;
            }
            for (String child : root.getChildren().forPath(path)) paths.push(path + "/" + child);
        }
        return changed;
    }

    /** A started client that answered within {@code seconds}; otherwise closed and a one-line error naming the quorum. */
    public static CuratorFramework connected(PinfeedConfig config, int seconds) throws InterruptedException {
        CuratorFramework client = start(config);
        if (!client.blockUntilConnected(seconds, TimeUnit.SECONDS)) {
            client.close();
            throw new IllegalStateException("application ZooKeeper " + config.appZookeeper() + " does not answer (" + seconds + " s)");
        }
        return client;
    }
}
