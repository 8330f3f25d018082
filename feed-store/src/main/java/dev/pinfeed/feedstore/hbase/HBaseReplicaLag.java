package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.feedstore.ReplicaLag;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stage's standby replication lag, measured with a heartbeat cell (pt-heartbeat's way): each
 * {@link #tick} first reads the stage's heartbeat row ({@code heartbeat} in {@code pools} or
 * {@code materialized_feed}, a replicated family; {@link HBaseStage}) on the stage's standby cluster,
 * then writes the current wall-clock time to it on the stage's home cluster (its "primary" here). The standby is behind by
 * at least the age of the oldest heartbeat this process wrote that it does not show yet, and by less
 * than a tick interval more; when it shows the newest one, the lag is taken as 0. So the figure is
 * honest to within one interval (1 s by default), costs one Get and one Put per interval, and while
 * the primary is down (no heartbeat written) it stays at what replication had not shipped when the
 * primary stopped taking writes. Several processes may share the row: same-row edits replicate in
 * order, so a newer heartbeat seen on the standby means every older one arrived too (clock skew
 * between writers blurs this by the skew).
 */
public final class HBaseReplicaLag implements ReplicaLag {

    private static final Logger LOG = LoggerFactory.getLogger(HBaseReplicaLag.class);

    private final HBaseStage stage;
    private final Connection primary;
    private final Connection standby;
    private final LongSupplier wallMillis;
    /** Heartbeats this process wrote that the standby did not show at the last look. */
    private final ConcurrentSkipListSet<Long> unseen = new ConcurrentSkipListSet<>();
    private volatile OptionalLong lag = OptionalLong.empty();
    private volatile boolean wroteAny;

    /** The materialized feed's lag: {@code primary} is its home cluster, {@code standby} the other. */
    public HBaseReplicaLag(Connection primary, Connection standby, LongSupplier wallMillis) {
        this(HBaseStage.MATERIALIZED, primary, standby, wallMillis);
    }

    /** {@code stage}'s lag: {@code home} takes its writes (and the heartbeat), {@code standby} is the replica measured. */
    public HBaseReplicaLag(HBaseStage stage, Connection home, Connection standby, LongSupplier wallMillis) {
        this.stage = stage;
        this.primary = home;
        this.standby = standby;
        this.wallMillis = wallMillis;
    }

    @Override
    public OptionalLong millis() {
        return lag;
    }

    /** One measurement: read the standby's heartbeat, then write a new one on the primary. Never throws (a failed side is skipped). */
    public void tick() {
        long now = wallMillis.getAsLong();
        try (Table t = standby.getTable(stage.table())) {
            Result r = t.get(new Get(stage.heartbeatRow).addColumn(stage.family, stage.heartbeatColumn));
            byte[] v = r.getValue(stage.family, stage.heartbeatColumn);
            long seen = v == null ? Long.MIN_VALUE : ByteBuffer.wrap(v).getLong();
            unseen.headSet(seen, true).clear();
            if (!unseen.isEmpty()) {
                lag = OptionalLong.of(Math.max(0, now - unseen.first()));
            } else if (wroteAny) { // everything this process wrote has arrived
                lag = OptionalLong.of(0);
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("{}: standby heartbeat read failed: {}", stage.label(), HBasePoolStore.firstLine(e.getMessage()));
        }
        try (Table t = primary.getTable(stage.table())) {
            t.put(new Put(stage.heartbeatRow).addColumn(stage.family, stage.heartbeatColumn,
                    ByteBuffer.allocate(8).putLong(now).array()));
            unseen.add(now);
            wroteAny = true;
            while (unseen.size() > 10_000) unseen.pollFirst(); // a standby that never catches up: keep memory bounded
        } catch (IOException | RuntimeException e) {
            LOG.debug("{}: home heartbeat write failed: {}", stage.label(), HBasePoolStore.firstLine(e.getMessage()));
        }
    }
}
