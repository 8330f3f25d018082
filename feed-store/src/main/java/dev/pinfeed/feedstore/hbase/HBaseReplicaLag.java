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
 * The standby's replication lag, measured with a heartbeat cell (pt-heartbeat's way): each
 * {@link #tick} first reads the heartbeat row of {@code materialized_feed} (a replicated family) on
 * the standby, then writes the current wall-clock time to it on the primary. The standby is behind by
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

    private final Connection primary;
    private final Connection standby;
    private final LongSupplier wallMillis;
    /** Heartbeats this process wrote that the standby did not show at the last look. */
    private final ConcurrentSkipListSet<Long> unseen = new ConcurrentSkipListSet<>();
    private volatile OptionalLong lag = OptionalLong.empty();
    private volatile boolean wroteAny;

    public HBaseReplicaLag(Connection primary, Connection standby, LongSupplier wallMillis) {
        this.primary = primary;
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
        try (Table t = standby.getTable(HBaseClusters.MATERIALIZED_FEED)) {
            Result r = t.get(new Get(MaterializedKeys.HEARTBEAT_ROW).addColumn(MaterializedKeys.FAMILY, MaterializedKeys.HEARTBEAT));
            byte[] v = r.getValue(MaterializedKeys.FAMILY, MaterializedKeys.HEARTBEAT);
            long seen = v == null ? Long.MIN_VALUE : ByteBuffer.wrap(v).getLong();
            unseen.headSet(seen, true).clear();
            if (!unseen.isEmpty()) {
                lag = OptionalLong.of(Math.max(0, now - unseen.first()));
            } else if (wroteAny) { // everything this process wrote has arrived
                lag = OptionalLong.of(0);
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("standby heartbeat read failed: {}", HBasePoolStore.firstLine(e.getMessage()));
        }
        try (Table t = primary.getTable(HBaseClusters.MATERIALIZED_FEED)) {
            t.put(new Put(MaterializedKeys.HEARTBEAT_ROW).addColumn(MaterializedKeys.FAMILY, MaterializedKeys.HEARTBEAT,
                    ByteBuffer.allocate(8).putLong(now).array()));
            unseen.add(now);
            wroteAny = true;
            while (unseen.size() > 10_000) unseen.pollFirst(); // a standby that never catches up: keep memory bounded
        } catch (IOException | RuntimeException e) {
            LOG.debug("primary heartbeat write failed: {}", HBasePoolStore.firstLine(e.getMessage()));
        }
    }
}
