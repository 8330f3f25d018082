package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.FeedPage;
import dev.pinfeed.feedstore.FeedPosition;
import dev.pinfeed.feedstore.FirstPageView;
import dev.pinfeed.feedstore.GeneratorState;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.PendingAndState;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;

/**
 * {@link MaterializedFeedStore} in HBase, rows per {@link MaterializedKeys}. Low volume and user
 * facing (seed 002), so every call is a direct, synchronous table operation.
 */
public final class HBaseMaterializedFeedStore implements MaterializedFeedStore {

    private final Connection connection;
    private final TableName table;
    private final String cluster;

    public HBaseMaterializedFeedStore(Connection connection, String cluster) {
        this(connection, HBaseClusters.MATERIALIZED_FEED, cluster);
    }

    HBaseMaterializedFeedStore(Connection connection, TableName table, String cluster) {
        this.connection = connection;
        this.table = table;
        this.cluster = cluster;
    }

    @Override
    public void journal(Chunk chunk) {
        put(List.of(new Put(MaterializedKeys.journalRow(chunk.userId(), chunk.chunkId()))
                .addColumn(MaterializedKeys.FAMILY, MaterializedKeys.JOURNAL, encode(chunk))), "journaling a chunk");
    }

    @Override
    public List<Chunk> pending(long userId) {
        byte[][] range = MaterializedKeys.journalRange(userId);
        List<Chunk> out = new ArrayList<>();
        for (Result r : scan(new Scan().withStartRow(range[0]).withStopRow(range[1]), "reading the chunk journal")) {
            out.add(decode(r.getValue(MaterializedKeys.FAMILY, MaterializedKeys.JOURNAL)));
        }
        return out;
    }

    /** One scan: the state row, then the journal rows (they sort together); the old state row only when there is no state row. */
    @Override
    public PendingAndState pendingAndState(long userId) {
        List<Chunk> pending = new ArrayList<>();
        Optional<GeneratorState> state = Optional.empty();
        for (Result r : scan(MaterializedKeys.stateAndJournalScan(userId), "reading the feed state and the chunk journal")) {
            if (MaterializedKeys.isStateRow(r.getRow())) state = Optional.of(stateOf(r));
            else pending.add(decode(r.getValue(MaterializedKeys.FAMILY, MaterializedKeys.JOURNAL)));
        }
        return new PendingAndState(pending, state.or(() -> oldState(userId)));
    }

    /**
     * One scan from the state row on: the state, the journal and the newest items. With a journal row among them the
     * journal is read whole (it may run past the scan's limit) and no page is returned.
     */
    @Override
    public FirstPageView firstPageView(long userId, int limit) {
        Optional<GeneratorState> state = Optional.empty();
        boolean pending = false;
        List<Result> items = new ArrayList<>(limit + 1);
        for (Result r : scan(MaterializedKeys.firstPageScan(userId, limit), "reading the feed state, the chunk journal and the first page")) {
            if (MaterializedKeys.isStateRow(r.getRow())) state = Optional.of(stateOf(r));
            else if (MaterializedKeys.isJournalRow(r.getRow())) pending = true;
            else items.add(r);
        }
        Optional<GeneratorState> old = state.isPresent() ? Optional.empty() : oldState(userId);
        return new FirstPageView(pending ? pending(userId) : List.of(), state.or(() -> old), old.isPresent(),
                pending ? Optional.empty() : Optional.of(page(items, limit)));
    }

    @Override
    public void materialize(Chunk chunk) {
        List<Put> items = new ArrayList<>(chunk.items().size());
        for (int i = 0; i < chunk.items().size(); i++) {
            items.add(new Put(MaterializedKeys.itemRow(chunk.userId(), new FeedPosition(chunk.chunkId(), i)))
                    .addColumn(MaterializedKeys.FAMILY, MaterializedKeys.ITEM, MaterializedKeys.itemValue(chunk.items().get(i))));
        }
        put(items, "materializing a chunk");
        // Only once every item is in place: a crash before this line leaves the journal entry, and a repeat writes the same rows.
        delete(List.of(new Delete(MaterializedKeys.journalRow(chunk.userId(), chunk.chunkId()))), "clearing the chunk journal");
    }

    @Override
    public FeedPage read(long userId, FeedPosition after, int limit) {
        return page(scan(MaterializedKeys.pageScan(userId, after, limit), "reading the materialized feed"), limit);
    }

    /** One scan: the user's journal rows and the page's rows together (a next page's two questions in one round trip). */
    @Override
    public Optional<FeedPage> readUnlessPending(long userId, FeedPosition after, int limit) {
        List<Result> rows = scan(MaterializedKeys.journalAndPageScan(userId, after, limit), "reading the materialized feed");
        if (!rows.isEmpty() && MaterializedKeys.isJournalRow(rows.get(0).getRow())) return Optional.empty();
        return Optional.of(page(rows, limit));
    }

    private static FeedPage page(List<Result> rows, int limit) {
        List<FeedPage.Positioned> items = new ArrayList<>(rows.size());
        for (Result r : rows) {
            items.add(new FeedPage.Positioned(MaterializedKeys.positionOf(r.getRow()),
                    MaterializedKeys.decodeItem(r.getValue(MaterializedKeys.FAMILY, MaterializedKeys.ITEM))));
        }
        boolean more = items.size() > limit;
        return new FeedPage(more ? items.subList(0, limit) : items, more);
    }

    @Override
    public void removePins(long userId, Collection<Long> pinIds) {
        Set<Long> pins = new HashSet<>(pinIds);
        List<Delete> deletes = new ArrayList<>();
        for (FeedPage.Positioned p : all(userId)) {
            if (pins.contains(p.item().pinId())) deletes.add(new Delete(MaterializedKeys.itemRow(userId, p.position())));
        }
        delete(deletes, "removing pins from the materialized feed");
    }

    @Override
    public List<FeedPage.Positioned> all(long userId) {
        byte[][] range = MaterializedKeys.itemRange(userId);
        List<FeedPage.Positioned> out = new ArrayList<>();
        for (Result r : scan(new Scan().withStartRow(range[0]).withStopRow(range[1]).setCaching(1000), "reading the materialized feed")) {
            out.add(new FeedPage.Positioned(MaterializedKeys.positionOf(r.getRow()),
                    MaterializedKeys.decodeItem(r.getValue(MaterializedKeys.FAMILY, MaterializedKeys.ITEM))));
        }
        return out;
    }

    /** One key-only scan of the user's item rows (in feed order: only their keys are needed), then one batch of deletes. */
    @Override
    public int trim(long userId, int maxItems) {
        byte[][] range = MaterializedKeys.itemRange(userId);
        List<Delete> deletes = new ArrayList<>();
        int items = 0;
        for (Result r : scan(new Scan().withStartRow(range[0]).withStopRow(range[1]).setFilter(new KeyOnlyFilter()).setCaching(1000),
                "reading the materialized feed to trim it")) {
            if (items++ >= maxItems) deletes.add(new Delete(r.getRow()));
        }
        delete(deletes, "trimming the materialized feed");
        return items - deletes.size();
    }

    @Override
    public Optional<GeneratorState> state(long userId) {
        return get(MaterializedKeys.stateRow(userId)).or(() -> oldState(userId));
    }

    /** The state where earlier versions kept it ({@link MaterializedKeys#oldStateRow}); the next save writes the state row. */
    private Optional<GeneratorState> oldState(long userId) {
        return get(MaterializedKeys.oldStateRow(userId));
    }

    private Optional<GeneratorState> get(byte[] stateRow) {
        try (Table t = connection.getTable(table)) {
            Result r = t.get(new Get(stateRow));
            return r.isEmpty() ? Optional.empty() : Optional.of(stateOf(r));
        } catch (IOException e) {
            throw unavailable("reading the feed state", e);
        }
    }

    /** One key-only scan of the user's rows, then one batch of deletes. */
    @Override
    public void reset(long userId) {
        byte[][] range = MaterializedKeys.userRange(userId);
        List<Delete> deletes = new ArrayList<>();
        for (Result r : scan(new Scan().withStartRow(range[0]).withStopRow(range[1]).setFilter(new KeyOnlyFilter()).setCaching(1000),
                "reading the user's feed rows")) {
            deletes.add(new Delete(r.getRow()));
        }
        delete(deletes, "resetting the user's feed");
    }

    private static GeneratorState stateOf(Result r) {
        byte[] size = r.getValue(MaterializedKeys.FAMILY, MaterializedKeys.CHUNK_SIZE);
        byte[] read = r.getValue(MaterializedKeys.FAMILY, MaterializedKeys.LAST_READ);
        byte[] items = r.getValue(MaterializedKeys.FAMILY, MaterializedKeys.ITEM_COUNT);
        return new GeneratorState(size == null ? 0 : ByteBuffer.wrap(size).getInt(), read == null ? 0 : ByteBuffer.wrap(read).getLong(),
                items == null ? GeneratorState.UNKNOWN_ITEMS : ByteBuffer.wrap(items).getInt());
    }

    @Override
    public void saveState(long userId, GeneratorState state) {
        put(List.of(new Put(MaterializedKeys.stateRow(userId))
                .addColumn(MaterializedKeys.FAMILY, MaterializedKeys.CHUNK_SIZE, ByteBuffer.allocate(4).putInt(state.nextChunkSize()).array())
                .addColumn(MaterializedKeys.FAMILY, MaterializedKeys.LAST_READ, ByteBuffer.allocate(8).putLong(state.lastReadMillis()).array())
                .addColumn(MaterializedKeys.FAMILY, MaterializedKeys.ITEM_COUNT, ByteBuffer.allocate(4).putInt(state.materializedItems()).array())),
                "saving the feed state");
    }

    /** user(8) chunk(8) count(4) then each item as {@link MaterializedKeys#itemValue}. */
    static byte[] encode(Chunk chunk) {
        ByteBuffer b = ByteBuffer.allocate(20 + 33 * chunk.items().size()).putLong(chunk.userId()).putLong(chunk.chunkId())
                .putInt(chunk.items().size());
        for (FeedItem item : chunk.items()) b.put(MaterializedKeys.itemValue(item));
        return b.array();
    }

    static Chunk decode(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        long user = b.getLong();
        long chunkId = b.getLong();
        int n = b.getInt();
        List<FeedItem> items = new ArrayList<>(n);
        byte[] item = new byte[33];
        for (int i = 0; i < n; i++) {
            b.get(item);
            items.add(MaterializedKeys.decodeItem(item));
        }
        return new Chunk(user, chunkId, items);
    }

    private List<Result> scan(Scan scan, String what) {
        List<Result> out = new ArrayList<>();
        try (Table t = connection.getTable(table); ResultScanner rs = t.getScanner(scan)) {
            for (Result r : rs) out.add(r);
        } catch (IOException e) {
            throw unavailable(what, e);
        }
        return out;
    }

    private void put(List<Put> puts, String what) {
        batch(new ArrayList<>(puts), what);
    }

    private void delete(List<Delete> deletes, String what) {
        batch(new ArrayList<>(deletes), what);
    }

    private void batch(List<Row> actions, String what) {
        if (actions.isEmpty()) return;
        try (Table t = connection.getTable(table)) {
            t.batch(actions, new Object[actions.size()]);
        } catch (IOException e) {
            throw unavailable(what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException(cluster, what + " interrupted", e);
        }
    }

    private StoreUnavailableException unavailable(String what, IOException e) {
        return new StoreUnavailableException(cluster, what + " failed: " + e.getClass().getSimpleName() + ": "
                + HBasePoolStore.firstLine(e.getMessage()), e);
    }
}
