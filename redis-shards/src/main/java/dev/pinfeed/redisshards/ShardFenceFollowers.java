package dev.pinfeed.redisshards;

import dev.pinfeed.redisshards.RedisShardMap.Span;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * Who follows a Redis shard map, and which fences each has taken up: one ephemeral znode per
 * follower (a process's {@link RedisShardConfig}) under {@code <map znode>-followers}, its content
 * {@code fenced=<spans>} and a line naming the process. A follower writes the fences of a new map only
 * once none of its writes to a fenced shard is still in flight, so a mover that sees every follower
 * acknowledge its fence knows no write can reach the old instance any more (seed 003's write pause,
 * made exact). The only class that reads or writes these znodes.
 */
public final class ShardFenceFollowers {

    private static final String FENCED = "fenced=";

    private ShardFenceFollowers() {}

    public static String path(String mapPath) {
        return mapPath + "-followers";
    }

    /** One follower's znode: kept (re-created after a session loss) until {@link #close}. */
    public static final class Member implements AutoCloseable {
        private final PersistentNode node;
        private final String who;

        private Member(PersistentNode node, String who) {
            this.node = node;
            this.who = who;
        }

        /** Says this follower holds no write to {@code fences} in flight and starts none until they are lifted. */
        public void acknowledge(List<Span> fences) throws Exception {
            node.setData(content(fences, who));
        }

        @Override
        public void close() throws Exception {
            node.close();
        }
    }

    public static Member register(CuratorFramework zk, String mapPath, List<Span> fences) throws Exception {
        String who = ManagementFactory.getRuntimeMXBean().getName() + " " + Thread.currentThread().getName();
        PersistentNode node = new PersistentNode(zk, CreateMode.EPHEMERAL, false, path(mapPath) + "/" + UUID.randomUUID(),
                content(fences, who));
        node.start();
        if (!node.waitForInitialCreate(20, java.util.concurrent.TimeUnit.SECONDS)) {
            node.close();
            throw new IllegalStateException("could not register as a follower of " + mapPath + " in ZooKeeper");
        }
        return new Member(node, who);
    }

    private static byte[] content(List<Span> fences, String who) {
        return (FENCED + String.join(",", fences.stream().map(Span::toString).toList()) + "\n" + who).getBytes(StandardCharsets.UTF_8);
    }

    /** The followers of {@code mapPath} that have not (yet) taken up {@code fence}, by their process names. */
    public static List<String> notFencing(CuratorFramework zk, String mapPath, Span fence) throws Exception {
        List<String> behind = new ArrayList<>();
        List<String> children;
        try {
            children = zk.getChildren().forPath(path(mapPath));
        } catch (KeeperException.NoNodeException none) {
            return behind;
        }
        for (String child : children) {
            String text;
            try {
                text = new String(zk.getData().forPath(path(mapPath) + "/" + child), StandardCharsets.UTF_8);
            } catch (KeeperException.NoNodeException gone) {
                continue; // the process ended: it writes nothing any more
            }
            int newline = text.indexOf('\n');
            String fences = newline < 0 ? text : text.substring(0, newline);
            boolean taken = false;
            if (fences.startsWith(FENCED)) {
                for (String f : fences.substring(FENCED.length()).split(",")) {
                    if (!f.isBlank() && Span.parse(f).equals(fence)) taken = true;
                }
            }
            if (!taken) behind.add(newline < 0 ? child : text.substring(newline + 1));
        }
        return behind;
    }
}
