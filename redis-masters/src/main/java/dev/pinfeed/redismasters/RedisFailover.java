package dev.pinfeed.redismasters;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig.ReplicatedHost;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientPauseMode;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Promotes a Redis instance's replica to master ({@code ./pinfeed failover redis001}, docs/operations.md
 * "Failover"):
 * <ol>
 *   <li>if the old master still answers, it is fenced: {@code CLIENT PAUSE WRITE}, and the replica must
 *       reach the master's replication offset (nothing the master acknowledged is left behind);</li>
 *   <li>the replica stops replicating ({@code REPLICAOF NO ONE}) and takes writes;</li>
 *   <li>the live master map in ZooKeeper is compare-and-set, and every service's
 *       {@link RedisMasterClients} moves to the new master;</li>
 *   <li>a fenced old master becomes a replica of the new one and is unpaused, so a client still on it
 *       gets READONLY (an outage, retried) instead of writing beside the new master.</li>
 * </ol>
 * With the old master dead, the replica keeps what it had received; replication is asynchronous, so
 * a write the master acknowledged in its last moments may be missing — which is why the processors
 * wait for the replica ({@link RedisMasterClients#awaitReplica}) before they commit their offsets.
 */
public final class RedisFailover {

    /** What happened: the promoted server, whether the old master answered, the offsets compared. */
    public record Report(String instance, HostPort oldMaster, HostPort newMaster, boolean fencedOldMaster, long oldMasterOffset,
                         long replicaOffset, Duration took) {}

    private final RedisClientSettings clientSettings;
    private final Duration patience;
    private final Consumer<String> progress;

    /** {@code clientSettings}: how to reach the instances' servers ({@link RedisClientSettings#from}). */
    public RedisFailover(RedisClientSettings clientSettings, Duration patience, Consumer<String> progress) {
        this.clientSettings = clientSettings;
        this.patience = patience;
        this.progress = progress;
    }

    public Report failover(CuratorFramework zk, String path, String instance, List<ReplicatedHost> configured) throws Exception {
        long start = System.nanoTime();
        ReplicatedHost pair = configured.stream().filter(h -> h.name().equals(instance)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no redis instance " + instance + " configured"));
        HostPort oldMaster = RedisMasterConfig.read(zk, path, configured).masterOf(instance);
        HostPort promoted = RedisMasterMap.standbyOf(pair, oldMaster);
        try (Jedis replica = connect(promoted)) {
            String role = field(replica.info("replication"), "role");
            if (!"slave".equals(role)) throw new IllegalStateException(promoted + " is not a replica (role " + role + "): nothing to promote");
            long masterOffset = -1;
            Jedis fenced = fence(oldMaster);
            try {
                if (fenced != null) {
                    masterOffset = Long.parseLong(field(fenced.info("replication"), "master_repl_offset"));
                    awaitOffset(replica, masterOffset);
                    progress.accept(instance + ": old master " + oldMaster + " fenced; the replica has applied its offset " + masterOffset);
                } else {
                    progress.accept(instance + ": old master " + oldMaster + " does not answer; promoting what the replica received");
                }
                long replicaOffset = Long.parseLong(field(replica.info("replication"), "slave_repl_offset"));
                replica.replicaofNoOne();
                progress.accept(instance + ": " + promoted + " is master (replication offset " + replicaOffset + ")");
                RedisMasterConfig.promote(zk, path, configured, instance, oldMaster, promoted);
                progress.accept(instance + ": master map in ZooKeeper " + path + " points at " + promoted);
                if (fenced != null) {
                    fenced.replicaof(promoted.host(), promoted.port());
                    progress.accept(instance + ": old master " + oldMaster + " now replicates " + promoted);
                }
                return new Report(instance, oldMaster, promoted, fenced != null, masterOffset, replicaOffset,
                        Duration.ofNanos(System.nanoTime() - start));
            } finally {
                if (fenced != null) {
                    try {
                        fenced.clientUnpause();
                    } catch (RuntimeException e) {
                        progress.accept(instance + ": could not unpause " + oldMaster + ": " + e.getMessage());
                    }
                    fenced.close();
                }
            }
        }
    }

    /** The old master, paused for writes, or null when it does not answer. */
    private Jedis fence(HostPort oldMaster) {
        Jedis j = null;
        try {
            j = connect(oldMaster); // connects here: refused when the server is gone
            j.clientPause(patience.toMillis(), ClientPauseMode.WRITE);
            return j;
        } catch (JedisConnectionException dead) {
            if (j != null) j.close();
            return null;
        }
    }

    /** While a wait lasts, a line this often says how far it is. */
    private static final long NOTE_EVERY_NANOS = 2_000_000_000L;

    private void awaitOffset(Jedis replica, long target) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + patience.toNanos();
        long nextNote = start + NOTE_EVERY_NANOS;
        while (true) {
            long applied = Long.parseLong(field(replica.info("replication"), "slave_repl_offset"));
            if (applied >= target) return;
            if (System.nanoTime() > nextNote) {
                nextNote = System.nanoTime() + NOTE_EVERY_NANOS;
                progress.accept(String.format(Locale.ROOT, "waiting for the replica: offset %d of %d (%d bytes to go), %.0f s of %d s",
                        applied, target, target - applied, (System.nanoTime() - start) / 1e9, patience.toSeconds()));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(String.format(Locale.ROOT, "the replica reached offset %d of the master's %d in %s; "
                        + "not promoting it (the old master stays paused until the pause ends)", applied, target, patience));
            }
            Thread.sleep(20);
        }
    }

    private Jedis connect(HostPort address) {
        return clientSettings.plainConnection(address, Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    /** One {@code name:value} line of an INFO section. */
    static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) return line.substring(name.length() + 1).trim();
        }
        throw new IllegalStateException("INFO has no " + name);
    }
}
