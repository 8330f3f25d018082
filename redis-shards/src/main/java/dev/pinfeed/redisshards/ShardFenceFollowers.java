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
 * {@code fenced=<spans>}, {@code instances=<the instances it can reach>} and a line naming the process. A follower writes the fences of a new map only
 * once none of its writes to a fenced shard is still in flight, so a mover that sees every follower
 * acknowledge its fence knows no write can reach the old instance any more (seed 003's write pause,
 * made exact). The only class that reads or writes these znodes.
 */
public final class ShardFenceFollowers {

    private static final String FENCED = "fenced=";
    private static final String INSTANCES = "instances=";

    private ShardFenceFollowers() {}

    public static String path(String mapPath) {
        return mapPath + "-followers";
    }

    /** One follower's znode: kept (re-created after a session loss) until {@link #close}. */
    public static final class Member implements AutoCloseable {
        private final PersistentNode node;
        private final String instances;
        private final String who;

        private Member(PersistentNode node, String instances, String who) {
            this.node = node;
            this.instances = instances;
            this.who = who;
        }

        /** Says this follower holds no write to {@code fences} in flight and starts none until they are lifted. */
        public void acknowledge(List<Span> fences) throws Exception {
            node.setData(content(fences, instances, who));
        }

        @Override
        public void close() throws Exception {
            node.close();
        }
    }

    /** Registers a follower that can reach {@code instances} (a map naming another one it refuses). */
    public static Member register(CuratorFramework zk, String mapPath, List<Span> fences, java.util.Collection<String> instances) throws Exception {
        String who = ManagementFactory.getRuntimeMXBean().getName() + " " + Thread.currentThread().getName();
        String known = String.join(",", new java.util.TreeSet<>(instances));
        PersistentNode node = new PersistentNode(zk, CreateMode.EPHEMERAL, false, path(mapPath) + "/" + UUID.randomUUID(),
                content(fences, known, who));
        node.start();
        if (!node.waitForInitialCreate(20, java.util.concurrent.TimeUnit.SECONDS)) {
            node.close();
            throw new IllegalStateException("could not register as a follower of " + mapPath + " in ZooKeeper");
        }
        return new Member(node, known, who);
    }

    private static byte[] content(List<Span> fences, String instances, String who) {
        return (FENCED + String.join(",", fences.stream().map(Span::toString).toList()) + "\n" + INSTANCES + instances + "\n" + who)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** One follower's znode, read. */
    private record Follower(List<Span> fences, List<String> instances, String who) {}

    private static List<Follower> followers(CuratorFramework zk, String mapPath) throws Exception {
        List<Follower> out = new ArrayList<>();
        List<String> children;
        try {
            children = zk.getChildren().forPath(path(mapPath));
        } catch (KeeperException.NoNodeException none) {
            return out;
        }
        for (String child : children) {
            String text;
            try {
                text = new String(zk.getData().forPath(path(mapPath) + "/" + child), StandardCharsets.UTF_8);
            } catch (KeeperException.NoNodeException gone) {
                continue; // the process ended: it writes nothing any more
            }
            List<Span> fences = new ArrayList<>();
            List<String> instances = new ArrayList<>();
            String who = child;
            for (String line : text.split("\n")) {
                if (line.startsWith(FENCED)) {
                    for (String f : line.substring(FENCED.length()).split(",")) if (!f.isBlank()) fences.add(Span.parse(f));
                } else if (line.startsWith(INSTANCES)) {
                    for (String i : line.substring(INSTANCES.length()).split(",")) if (!i.isBlank()) instances.add(i);
                } else if (!line.isBlank()) {
                    who = line;
                }
            }
            out.add(new Follower(fences, instances, who));
        }
        return out;
    }

    /** The followers of {@code mapPath} that cannot reach {@code instance} (they would refuse a map naming it), by process name. */
    public static List<String> notReaching(CuratorFramework zk, String mapPath, String instance) throws Exception {
        return followers(zk, mapPath).stream().filter(f -> !f.instances().contains(instance)).map(Follower::who).toList();
    }

    /** The followers of {@code mapPath} that have not (yet) taken up {@code fence}, by their process names. */
    public static List<String> notFencing(CuratorFramework zk, String mapPath, Span fence) throws Exception {
        return followers(zk, mapPath).stream().filter(f -> !f.fences().contains(fence)).map(Follower::who).toList();
    }
}
