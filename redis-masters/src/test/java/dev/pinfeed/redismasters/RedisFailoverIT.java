package dev.pinfeed.redismasters;

import static dev.pinfeed.infra.stacktestkit.Waits.awaitAcks;
import static dev.pinfeed.infra.stacktestkit.Waits.pause;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig.ReplicatedHost;
import dev.pinfeed.infra.stack.SpareServer;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.infra.stacktestkit.SpareZooKeeper;
import dev.pinfeed.redismasters.RedisFailover;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * Failover of a Redis instance: its master is killed with kill -9 under a write load,
 * {@link RedisFailover} promotes its replica and compare-and-sets the live master map, and the writer —
 * a {@link RedisMasterClients} following the map, as every service's Redis adapter does — goes on
 * writing to the new master without a restart. A write counts as acknowledged after the replication
 * barrier ({@link RedisMasterClients#awaitReplica}, what the graph processor waits for before
 * committing offsets); those before the kill were all confirmed by the replica, and every
 * acknowledged write is on the new master. Then the old server comes back
 * as the new master's replica and a planned failover (old master alive: fenced, then demoted) moves
 * the instance back, again losing nothing. Runs a Redis pair and a ZooKeeper of its own on spare
 * ports, never the shared stack's servers.
 */
class RedisFailoverIT {

    private static final String INSTANCE = "redisfo";

    @TempDir Path home;

    @Test
    void aKilledMasterIsFailedOverAndBackWithNothingAcknowledgedLost() throws Exception {
        HostPort first = new HostPort("127.0.0.1", ChildJvm.freePort());
        HostPort second = new HostPort("127.0.0.1", ChildJvm.freePort());
        List<ReplicatedHost> configured = List.of(new ReplicatedHost(INSTANCE, first, second));
        SpareServer firstServer = SpareServer.redis(home, "redis-failover-it-a", first, null);
        SpareServer secondServer = SpareServer.redis(home, "redis-failover-it-b", second, first);
        SpareZooKeeper zkServer = SpareZooKeeper.start(home.resolve("zk").toFile());
        Writer writer = null;
        try (CuratorFramework zk = zkServer.curator()) {
            firstServer.start();
            secondServer.start();
            String znode = "/config/redis-failover-it";
            try (RedisMasterConfig live = RedisMasterConfig.watch(zk, znode, configured, RedisClientSettings.none());
                 RedisMasterClients clients = RedisMasterClients.open(live, new RedisMasterClients.Settings("failover-it",
                         Duration.ofSeconds(1), Duration.ofSeconds(2), 2))) {
                writer = new Writer(clients);
                writer.start();
                awaitAcks(writer.acknowledged, 300, Duration.ofSeconds(60));

                // Unplanned: kill -9 of the master.
                int beforeKill = writer.acknowledged.size();
                firstServer.kill();
                long killedAt = System.nanoTime();
                List<String> steps = new ArrayList<>();
                RedisFailover.Report down = new RedisFailover(RedisClientSettings.none(), Duration.ofSeconds(30), steps::add).failover(zk, znode, INSTANCE, configured);
                long failedOverAt = System.nanoTime();
                assertThat(down.fencedOldMaster()).as("the old master was dead").isFalse();
                assertThat(down.newMaster()).isEqualTo(second);
                awaitAcks(writer.acknowledged, beforeKill + 1, Duration.ofSeconds(60));
                long writingAgainAt = System.nanoTime();
                awaitAcks(writer.acknowledged, writer.acknowledged.size() + 300, Duration.ofSeconds(60));
                assertThat(clients.addressOf(INSTANCE)).as("the clients follow the map").isEqualTo(second);
                assertThat(live.get().masterOf(INSTANCE)).isEqualTo(second);
                assertThat(role(second)).isEqualTo("master");
                assertThat(writer.confirmed).as("acknowledged before the kill, all confirmed by the replica")
                        .containsAll(writer.acknowledged.stream().filter(id -> id <= beforeKill).toList());
                writer.assertAllOn(second);
                System.err.printf(Locale.ROOT, "[RedisFailoverIT] kill -9: failover %.2f s after the kill (%s); writes acknowledged again "
                                + "%.2f s after the kill; %d acknowledged, %d refused while no master answered, all on the new master%n",
                        (failedOverAt - killedAt) / 1e9, String.join("; ", steps), (writingAgainAt - killedAt) / 1e9,
                        writer.acknowledged.size(), writer.refused.get());

                // The old server back as the new master's replica (the runbook), then a planned failover back.
                firstServer = firstServer.asRedisReplicaOf(second);
                firstServer.start();
                awaitInSync(first);
                steps.clear();
                int beforePlanned = writer.acknowledged.size();
                long plannedAt = System.nanoTime();
                RedisFailover.Report planned = new RedisFailover(RedisClientSettings.none(), Duration.ofSeconds(30), steps::add).failover(zk, znode, INSTANCE, configured);
                long plannedDone = System.nanoTime();
                assertThat(planned.fencedOldMaster()).as("the old master answered: fenced first").isTrue();
                assertThat(planned.newMaster()).isEqualTo(first);
                assertThat(planned.replicaOffset()).as("the replica had applied everything the fenced master took")
                        .isGreaterThanOrEqualTo(planned.oldMasterOffset());
                // Counted from the failover's end: writes before the fence may well reach 300 by themselves.
                int afterPlanned = writer.acknowledged.size();
                awaitAcks(writer.acknowledged, afterPlanned + 300, Duration.ofSeconds(60));
                assertThat(clients.addressOf(INSTANCE)).as("clients after the planned failover (map %s, steps %s, refused %d, acks %d of %d)",
                        live.get(), steps, writer.refused.get(), writer.acknowledged.size(), afterPlanned).isEqualTo(first);
                assertThat(role(second)).as("the demoted master replicates the new one").isEqualTo("slave");
                writer.finish();
                writer.assertAllOn(first);
                System.err.printf(Locale.ROOT, "[RedisFailoverIT] planned: %.2f s (%s); %d acknowledged in all, all on %s%n",
                        (plannedDone - plannedAt) / 1e9, String.join("; ", steps), writer.acknowledged.size(), first);
            }
        } finally {
            if (writer != null) writer.finish();
            secondServer.stop(Duration.ofSeconds(10));
            firstServer.stop(Duration.ofSeconds(10));
            zkServer.close();
        }
    }

    /**
     * Writes fo:1, fo:2, ... as the graph processor commits: a write is acknowledged after the barrier,
     * confirmed by the replica or not (after a failover the new master has no replica until one is
     * attached). {@code confirmed} holds those the replica confirmed.
     */
    private static final class Writer extends Thread {
        final Set<Long> acknowledged = new ConcurrentSkipListSet<>();
        final Set<Long> confirmed = new ConcurrentSkipListSet<>();
        final AtomicInteger refused = new AtomicInteger();
        private final RedisMasterClients clients;
        private final AtomicBoolean writing = new AtomicBoolean(true);

        Writer(RedisMasterClients clients) {
            super("redis-failover-it-writer");
            this.clients = clients;
        }

        @Override
        public void run() {
            long id = 1;
            while (writing.get()) {
                try {
                    RedisClient c = clients.get(INSTANCE);
                    c.set("fo:" + id, Long.toString(System.currentTimeMillis()));
                    if (clients.awaitReplica(INSTANCE, Duration.ofSeconds(1))) confirmed.add(id);
                    acknowledged.add(id);
                    id++;
                } catch (RuntimeException e) {
                    refused.incrementAndGet();
                    pause(50);
                }
            }
        }

        void finish() throws InterruptedException {
            writing.set(false);
            join(10_000);
        }

        void assertAllOn(HostPort server) {
            List<Long> missing = new ArrayList<>();
            try (Jedis j = new Jedis(server.host(), server.port(), 5_000)) {
                for (long id : acknowledged) {
                    if (!j.exists("fo:" + id)) missing.add(id);
                }
            }
            assertThat(missing).as("acknowledged writes missing on " + server).isEmpty();
        }
    }

    private static String role(HostPort server) {
        try (Jedis j = new Jedis(server.host(), server.port(), 5_000)) {
            for (String line : j.info("replication").split("\r?\n")) {
                if (line.startsWith("role:")) return line.substring(5).trim();
            }
        }
        throw new IllegalStateException("no role in INFO of " + server);
    }

    private static void awaitInSync(HostPort replica) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try (Jedis j = new Jedis(replica.host(), replica.port(), 5_000)) {
                if (j.info("replication").contains("master_link_status:up")) return;
            } catch (RuntimeException notYet) {
                // loading
            }
            assertThat(System.nanoTime()).as(replica + " not in sync in 30 s").isLessThan(deadline);
            pause(100);
        }
    }
}
