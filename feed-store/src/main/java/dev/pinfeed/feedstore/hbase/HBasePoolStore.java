package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.IntToLongFunction;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;

/**
 * {@link PoolStore} in HBase, rows per {@link PoolKeys}. Writes go through one BufferedMutator
 * (seed 002: batching, not a WAL lock per fan-out write), flushed before a call returns; new rows are
 * flushed before old ones are deleted, so a crash in between leaves an orphan row (skipped and
 * cleaned up by readers, which check each entry against the user's index row), never a lost pin.
 * Bounded upserts count pool sizes in memory ({@link PoolSizeEstimates}), so a write costs the
 * region server one index Get and two Puts per entry (two Puts for an entry of a first-time fan-out
 * delivery, {@link #markDelivered}: one atomic marker write per chunk instead of a Get per entry), and
 * a pool is scanned only when it may be past its maximum. The bound holds per store instance: a pool
 * this instance has not written before is counted from 0, so another writer's or an earlier
 * process's entries can take it up to one maximum further before its first check here. As
 * {@link PoolRows} it shows the rows as stored (orphans and index rows pointing at nothing included) for
 * the operators' check and repair.
 */
public final class HBasePoolStore implements PoolStore, PoolRows {

    private final Connection connection;
    private final TableName table;
    private final String cluster;
    private final BufferedMutator mutator; // null on a read-only replica
    private volatile PoolSizeEstimates sizes; // made by the first bounded upsert: only writers that bound pools need its 8 MiB

    /**
     * How long a pin the user was shown keeps being left out of his pools ({@link #removeShown}): longer than the
     * fan-out topic keeps chunks (7 days) and as long as the fan-out's activity window (30 days), so neither a
     * replay of the chunks nor of the pins within that window shows him a pin twice. A cell TTL ends each mark.
     */
    public static final Duration SHOWN_TTL = Duration.ofDays(30);

    /** Actions per client batch call: well within the client's operation timeout even on a loaded box. */
    private static final int SLICE = 10_000;

    /** Slots of {@link PoolSizeEstimates}: 2^21, so a worker's hundreds of thousands of active pools rarely share one. */
    private static final int SIZE_SLOT_BITS = 21;

    /** One (user, source) pool. */
    private record Pool(long user, Source source) {}

    public HBasePoolStore(Connection connection, String cluster) {
        this(connection, HBaseClusters.POOLS, cluster);
    }

    HBasePoolStore(Connection connection, TableName table, String cluster) {
        this(connection, table, cluster, false);
    }

    private HBasePoolStore(Connection connection, TableName table, String cluster, boolean readOnly) {
        this.connection = connection;
        this.table = table;
        this.cluster = cluster;
        try {
            this.mutator = readOnly ? null : connection.getBufferedMutator(new BufferedMutatorParams(table).writeBufferSize(4L << 20));
        } catch (IOException e) {
            throw unavailable("opening the pool writer", e);
        }
    }

    /**
     * A store that only reads, for a replica (the standby): it skips orphan rows without deleting them
     * (there an "orphan" may be an entry whose index row has not been replicated yet, and a delete
     * written on the replica would hide the row when it arrives), and every write throws.
     */
    public static HBasePoolStore readOnly(Connection connection, String cluster) {
        return new HBasePoolStore(connection, HBaseClusters.POOLS, cluster, true);
    }

    /**
     * Entries written per round of batched calls: a worker batch can hold 100 000 (a big fan-out's chunks
     * polled at once), and one multi-call that size ran the region server (512 MB heap) out of memory.
     */
    static final int ENTRIES_PER_ROUND = 5_000;
    /** Mutations handed to the mutator per call (see {@link #write}). */
    private static final int MUTATIONS_PER_CALL = 10_000;

    @Override
    public void upsert(Collection<PoolEntry> entries) {
        requireWritable();
        for (List<PoolEntry> slice : rounds(entries)) put(slice, e -> false);
    }

    /** One atomic check-and-put per delivery (its marker row, {@link PoolKeys#deliveryRow}), in one batch call per slice. */
    @Override
    public Set<Delivery> markDelivered(Collection<Delivery> deliveries) {
        requireWritable();
        List<Delivery> list = List.copyOf(new LinkedHashSet<>(deliveries));
        List<CheckAndMutate> claims = new ArrayList<>(list.size());
        for (Delivery d : list) {
            byte[] row = PoolKeys.deliveryRow(d.pinId(), d.chunkIndex());
            claims.add(CheckAndMutate.newBuilder(row).ifNotExists(PoolKeys.FAMILY, PoolKeys.DELIVERED)
                    .build(new Put(row).addColumn(PoolKeys.FAMILY, PoolKeys.DELIVERED, new byte[] {1})));
        }
        Object[] results = batch(claims, "marking fan-out deliveries");
        Set<Delivery> before = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            if (!((CheckAndMutateResult) results[i]).isSuccess()) before.add(list.get(i));
        }
        return before;
    }

    /** {@code entries} in order, in slices of at most {@link #ENTRIES_PER_ROUND}; a later entry for a (user, pin) still wins. */
    private static List<List<PoolEntry>> rounds(Collection<PoolEntry> entries) {
        List<PoolEntry> all = new ArrayList<>(entries);
        List<List<PoolEntry>> out = new ArrayList<>();
        for (int from = 0; from < all.size(); from += ENTRIES_PER_ROUND) out.add(all.subList(from, Math.min(all.size(), from + ENTRIES_PER_ROUND)));
        return out;
    }

    /**
     * Writes the entries, counts them into their pools' size estimates and cuts the pools whose
     * estimate passed {@code maxPerSource}: a trim scans a pool once per {@code maxPerSource -
     * keepPerSource} writes to it, not on every write. Every entry counts, new or not (a replay or
     * re-score can only overstate a size). What this instance writes alone leaves no pool past its
     * maximum, except a pool whose slot another pool's check reset (PoolSizeEstimates: rare, bounded
     * by one more maximum).
     */
    @Override
    public int upsert(Collection<PoolEntry> entries, int maxPerSource, int keepPerSource) {
        return upsert(entries, e -> false, maxPerSource, keepPerSource);
    }

    @Override
    public int upsert(Collection<PoolEntry> entries, Predicate<PoolEntry> unseen, int maxPerSource, int keepPerSource) {
        PoolStore.checkBounds(maxPerSource, keepPerSource);
        requireWritable();
        PoolSizeEstimates estimates = estimates();
        Set<Pool> over = new LinkedHashSet<>(); // estimates only grow here, so a pool past its maximum once still is at the end
        for (List<PoolEntry> slice : rounds(entries)) {
            for (PoolEntry e : put(slice, unseen)) {
                if (estimates.add(e.userId(), e.source(), 1) > maxPerSource) over.add(new Pool(e.userId(), e.source()));
            }
        }
        int removed = 0;
        for (Pool pool : over) removed += cut(pool, maxPerSource, keepPerSource);
        return removed;
    }

    private PoolSizeEstimates estimates() {
        PoolSizeEstimates e = sizes;
        if (e == null) {
            synchronized (this) {
                if (sizes == null) sizes = new PoolSizeEstimates(SIZE_SLOT_BITS);
                e = sizes;
            }
        }
        return e;
    }

    /** A user's entry for one pin: what "one entry per (user, pin)" counts. */
    private record UserPin(long user, long pin) {}

    /**
     * Writes the entries; returns the ones written (the last for each (user, pin) given here). One round
     * trip reads the index rows of the entries not {@code unseen} (and of any (user, pin) given twice
     * here); a flush then writes the entries and their index rows, and a last one deletes rows the
     * re-scored entries left.
     */
    private Collection<PoolEntry> put(Collection<PoolEntry> entries, Predicate<PoolEntry> unseen) {
        if (entries.isEmpty()) return List.of();
        Map<UserPin, PoolEntry> latest = new LinkedHashMap<>(entries.size() * 2);
        Set<UserPin> repeated = new HashSet<>();
        for (PoolEntry e : entries) {
            UserPin key = new UserPin(e.userId(), e.pinId());
            if (latest.put(key, e) != null) repeated.add(key); // the last entry for a (user, pin) wins
        }
        List<PoolEntry> checked = new ArrayList<>();
        for (Map.Entry<UserPin, PoolEntry> k : latest.entrySet()) {
            PoolEntry e = k.getValue();
            // A recommendation is always checked: it must not displace the user's entry of the pin from another pool.
            if (!unseen.test(e) || repeated.contains(k.getKey()) || PoolStore.recommendation(e.source())) checked.add(e);
        }
        // One batch read: each checked entry's index row (where his old entry is) and shown mark (left out if shown).
        List<Get> gets = new ArrayList<>(checked.size() * 2);
        for (PoolEntry e : checked) {
            gets.add(new Get(PoolKeys.indexRow(e.userId(), e.pinId())).addColumn(PoolKeys.FAMILY, PoolKeys.INDEX));
            gets.add(new Get(PoolKeys.shownRow(e.userId(), e.pinId())).addColumn(PoolKeys.FAMILY, PoolKeys.SHOWN));
        }
        Object[] read = gets.isEmpty() ? new Object[0] : batch(gets, "reading pool index rows and shown marks");
        Map<PoolEntry, byte[]> oldIndex = new IdentityHashMap<>();
        for (int i = 0; i < checked.size(); i++) {
            PoolEntry e = checked.get(i);
            if (!((Result) read[2 * i + 1]).isEmpty()) latest.remove(new UserPin(e.userId(), e.pinId()));
            byte[] index = ((Result) read[2 * i]).getValue(PoolKeys.FAMILY, PoolKeys.INDEX);
            if (index != null && !PoolStore.displaces(e.source(), PoolKeys.decodeIndex(PoolKeys.indexRow(e.userId(), e.pinId()), index).source())) {
                latest.remove(new UserPin(e.userId(), e.pinId())); // a recommendation of a pin he has from another pool
                continue;
            }
            if (index != null) oldIndex.put(e, index);
        }

        List<Mutation> puts = new ArrayList<>(latest.size() * 2);
        List<Mutation> deletes = new ArrayList<>();
        for (PoolEntry e : latest.values()) {
            puts.addAll(PoolKeys.puts(e));
            byte[] old = oldIndex.get(e);
            if (old != null) {
                byte[] oldRow = PoolKeys.entryRowOf(e.userId(), e.pinId(), old);
                if (!Arrays.equals(oldRow, PoolKeys.entryRow(e))) deletes.add(new Delete(oldRow));
            }
        }
        write(puts);
        write(deletes);
        return latest.values();
    }

    @Override
    public void remove(long userId, Collection<Long> pinIds) {
        remove(Map.of(userId, pinIds));
    }

    /** One read of the index rows and one flush for all users. */
    @Override
    public void remove(Map<Long, ? extends Collection<Long>> pinsByUser) {
        requireWritable();
        write(removals(pinsByUser));
    }

    /** The deletes that remove these entries (entry and index rows), after one read of their index rows. */
    private List<Mutation> removals(Map<Long, ? extends Collection<Long>> pinsByUser) {
        List<long[]> pairs = new ArrayList<>();
        pinsByUser.forEach((user, pins) -> new HashSet<>(pins).forEach(p -> pairs.add(new long[] {user, p})));
        List<Mutation> deletes = new ArrayList<>();
        if (pairs.isEmpty()) return deletes;
        byte[][] index = indexValues(pairs.size(), i -> pairs.get(i)[0], i -> pairs.get(i)[1]);
        for (int i = 0; i < pairs.size(); i++) {
            byte[] value = index[i];
            if (value == null) continue;
            long user = pairs.get(i)[0];
            long pin = pairs.get(i)[1];
            deletes.add(new Delete(PoolKeys.entryRowOf(user, pin, value)));
            deletes.add(new Delete(PoolKeys.indexRow(user, pin)));
        }
        return deletes;
    }

    @Override
    public void removeShown(long userId, Collection<Long> pinIds) {
        removeShown(userId, pinIds, List.of());
    }

    /** Removes the entries and marks each pin shown to the user, for {@link #SHOWN_TTL}: one index read, one flush. */
    @Override
    public void removeShown(long userId, Collection<Long> shown, Collection<Long> alsoRemoved) {
        requireWritable();
        Set<Long> pins = new HashSet<>(shown);
        pins.addAll(alsoRemoved);
        List<Mutation> mutations = removals(Map.of(userId, pins));
        for (long pin : new HashSet<>(shown)) {
            mutations.add(new Put(PoolKeys.shownRow(userId, pin)).addColumn(PoolKeys.FAMILY, PoolKeys.SHOWN, new byte[] {1})
                    .setTTL(SHOWN_TTL.toMillis()));
        }
        write(mutations);
    }

    /** One batch read of the pins' shown rows. */
    @Override
    public Set<Long> shownAmong(long userId, Collection<Long> pinIds) {
        List<Long> pins = List.copyOf(new HashSet<>(pinIds));
        if (pins.isEmpty()) return Set.of();
        List<Get> gets = new ArrayList<>(pins.size());
        for (long pin : pins) gets.add(new Get(PoolKeys.shownRow(userId, pin)).addColumn(PoolKeys.FAMILY, PoolKeys.SHOWN));
        Object[] read = batch(gets, "reading shown marks");
        Set<Long> shown = new HashSet<>();
        for (int i = 0; i < pins.size(); i++) {
            if (!((Result) read[i]).isEmpty()) shown.add(pins.get(i));
        }
        return shown;
    }

    @Override
    public void forgetShown(long userId) {
        requireWritable();
        List<Mutation> deletes = new ArrayList<>();
        for (long pin : rows(userId).shown()) deletes.add(new Delete(PoolKeys.shownRow(userId, pin)));
        write(deletes);
    }

    @Override
    public void markRebuilt(long userId, long atMillis) {
        requireWritable();
        write(List.of(new Put(PoolKeys.rebuiltRow(userId)).addColumn(PoolKeys.FAMILY, PoolKeys.REBUILT, PoolKeys.rebuiltValue(atMillis))));
    }

    @Override
    public OptionalLong rebuiltAt(long userId) {
        try (Table t = connection.getTable(table)) {
            byte[] value = t.get(new Get(PoolKeys.rebuiltRow(userId)).addColumn(PoolKeys.FAMILY, PoolKeys.REBUILT))
                    .getValue(PoolKeys.FAMILY, PoolKeys.REBUILT);
            return value == null ? OptionalLong.empty() : OptionalLong.of(PoolKeys.rebuiltAt(value));
        } catch (IOException e) {
            throw unavailable("reading when a user's pools were rebuilt", e);
        }
    }

    @Override
    public List<PoolEntry> best(long userId, Source source, int n) {
        byte[][] range = PoolKeys.poolRange(userId, source);
        List<PoolEntry> out = new ArrayList<>(Math.max(0, n));
        byte[] start = range[0];
        while (out.size() < n) {
            int want = n - out.size();
            List<byte[]> rows = new ArrayList<>();
            List<PoolEntry> batch = scan(start, range[1], want, rows);
            out.addAll(verified(userId, batch, rows)); // orphans are skipped: read on past them
            if (batch.size() < want) break;
            start = MaterializedKeys.after(rows.get(rows.size() - 1));
        }
        return out;
    }

    /**
     * One scan of the user's entry rows (every pool, in source order), at most {@code rowsAtMost}; each pool's first {@code n}
     * rows verified in one index read. A pool is settled when its {@code n} rows were all current, or when the scan read it
     * to its end and verified every row of it; the rest ({@link #best} reads past orphans, or a pool the scan did not reach)
     * is left to the caller.
     */
    @Override
    public Map<Source, List<PoolEntry>> bestOfEach(long userId, Set<Source> sources, int n, int rowsAtMost) {
        if (n <= 0 || rowsAtMost <= 0) return PoolStore.super.bestOfEach(userId, sources, n, rowsAtMost);
        byte[][] range = PoolKeys.userRange(userId);
        List<byte[]> rows = new ArrayList<>();
        List<PoolEntry> read = scan(range[0], range[1], rowsAtMost, rows);
        // Read to the end: every pool is complete. Else the last row's pool may go on, and later pools were not reached.
        Source last = read.size() < rowsAtMost ? null : read.get(read.size() - 1).source();
        Map<Source, Integer> found = new EnumMap<>(Source.class);
        List<PoolEntry> heads = new ArrayList<>();
        List<byte[]> headRows = new ArrayList<>();
        for (int i = 0; i < read.size(); i++) {
            PoolEntry e = read.get(i);
            if (!sources.contains(e.source()) || found.merge(e.source(), 1, Integer::sum) > n) continue;
            heads.add(e);
            headRows.add(rows.get(i));
        }
        Map<Source, List<PoolEntry>> current = new EnumMap<>(Source.class);
        for (PoolEntry e : verified(userId, heads, headRows)) current.computeIfAbsent(e.source(), k -> new ArrayList<>()).add(e);
        Map<Source, List<PoolEntry>> out = new EnumMap<>(Source.class);
        for (Source s : sources) {
            List<PoolEntry> entries = current.getOrDefault(s, new ArrayList<>());
            boolean complete = last == null || s.code() < last.code();
            // n current rows; or the whole pool read and every row of it verified (orphans dropped). Else best reads it.
            if (entries.size() == n || complete && found.getOrDefault(s, 0) <= n) out.put(s, entries);
        }
        return out;
    }

    @Override
    public List<PoolEntry> all(long userId) {
        byte[][] range = PoolKeys.userRange(userId);
        List<byte[]> rows = new ArrayList<>();
        List<PoolEntry> entries = scan(range[0], range[1], Integer.MAX_VALUE, rows);
        return verified(userId, entries, rows);
    }

    /**
     * Every entry row of the user as stored, in row order, orphans of interrupted writes included (no
     * index check, nothing cleaned up): for diagnostics and tests that must see what is really there.
     */
    public List<PoolEntry> storedRows(long userId) {
        byte[][] range = PoolKeys.userRange(userId);
        return scan(range[0], range[1], Integer.MAX_VALUE, new ArrayList<>());
    }

    /** One scan of the user's entry and index rows; nothing is cleaned up (on a replica too). */
    @Override
    public UserRows rows(long userId) {
        byte[][] range = PoolKeys.userRowsRange(userId);
        Scan scan = new Scan().withStartRow(range[0]).withStopRow(range[1]).addFamily(PoolKeys.FAMILY).setCaching(1000);
        List<Result> rows = new ArrayList<>();
        try (Table t = connection.getTable(table); ResultScanner rs = t.getScanner(scan)) {
            for (Result r : rs) rows.add(r);
        } catch (IOException e) {
            throw unavailable("scanning a user's pool rows", e);
        }
        return classify(userId, rows);
    }

    /**
     * One scan from the first row after {@code afterUserId}, grouping rows by user as they come (a user's
     * entry rows, then his index rows); delivery markers (keyed by pin) between users are skipped.
     */
    @Override
    public List<UserRows> rowsAfter(long afterUserId, int maxUsers) {
        if (maxUsers < 1) throw new IllegalArgumentException("maxUsers must be >= 1: " + maxUsers);
        Scan scan = new Scan().withStartRow(PoolKeys.firstRowAfterUser(afterUserId)).addFamily(PoolKeys.FAMILY).setCaching(1000);
        List<UserRows> out = new ArrayList<>();
        List<Result> rows = new ArrayList<>();
        long current = 0;
        try (Table t = connection.getTable(table); ResultScanner rs = t.getScanner(scan)) {
            for (Result r : rs) {
                byte[] row = r.getRow();
                if (!PoolKeys.isEntryRow(row) && !PoolKeys.isIndexRow(row) && !PoolKeys.isShownRow(row)) continue;
                long user = PoolKeys.userOf(row);
                if (user != current) {
                    if (!rows.isEmpty()) out.add(classify(current, rows));
                    rows = new ArrayList<>();
                    if (out.size() == maxUsers) break;
                    current = user;
                }
                rows.add(r);
            }
        } catch (IOException e) {
            throw unavailable("scanning pool rows", e);
        }
        if (!rows.isEmpty()) out.add(classify(current, rows));
        return out;
    }

    /** A user's entry and index rows sorted into live entries, orphan entry rows and dangling index rows. */
    private static UserRows classify(long userId, List<Result> rows) {
        Map<ByteBuffer, PoolEntry> entries = new LinkedHashMap<>();
        List<byte[][]> indexes = new ArrayList<>();
        Set<Long> shown = new HashSet<>();
        for (Result r : rows) {
            byte[] row = r.getRow();
            if (PoolKeys.isEntryRow(row)) {
                entries.put(ByteBuffer.wrap(row), PoolKeys.decodeEntry(row, r.getValue(PoolKeys.FAMILY, PoolKeys.ENTRY)));
            } else if (PoolKeys.isIndexRow(row)) {
                indexes.add(new byte[][] {row, r.getValue(PoolKeys.FAMILY, PoolKeys.INDEX)});
            } else if (PoolKeys.isShownRow(row)) {
                shown.add(PoolKeys.pinOfIndexRow(row));
            }
        }
        Set<ByteBuffer> pointedAt = new HashSet<>();
        List<IndexRow> dangling = new ArrayList<>();
        for (byte[][] index : indexes) {
            ByteBuffer target = ByteBuffer.wrap(PoolKeys.entryRowOf(userId, PoolKeys.pinOfIndexRow(index[0]), index[1]));
            if (entries.containsKey(target)) pointedAt.add(target);
            else dangling.add(PoolKeys.decodeIndex(index[0], index[1]));
        }
        List<PoolEntry> live = new ArrayList<>();
        List<PoolEntry> orphans = new ArrayList<>();
        entries.forEach((row, entry) -> (pointedAt.contains(row) ? live : orphans).add(entry));
        return new UserRows(userId, live, orphans, dangling, shown);
    }

    @Override
    public void deleteEntryRows(Collection<PoolEntry> rows) {
        requireWritable();
        List<Mutation> deletes = new ArrayList<>(rows.size());
        for (PoolEntry e : rows) deletes.add(new Delete(PoolKeys.entryRow(e)));
        write(deletes);
    }

    @Override
    public void deleteIndexRows(long userId, Collection<Long> pinIds) {
        requireWritable();
        List<Mutation> deletes = new ArrayList<>(pinIds.size());
        for (long pin : new LinkedHashSet<>(pinIds)) deletes.add(new Delete(PoolKeys.indexRow(userId, pin)));
        write(deletes);
    }

    @Override
    public int trim(long userId, int maxPerSource) {
        requireWritable();
        int removed = 0;
        for (Source source : Source.values()) removed += cut(new Pool(userId, source), maxPerSource, maxPerSource);
        return removed;
    }

    /**
     * When a pool holds more than {@code max} entries, keeps its {@code keep} best and removes the rest (an
     * entry with its index row); a pool within the max keeps everything (its estimate overstated it). Only
     * entries count: an orphan row (the old row of a pin written again without the index read, or of an
     * interrupted re-score) takes no entry's place, and is deleted, as a reader deletes it. Either way the
     * pool's estimate becomes the entries kept.
     */
    private int cut(Pool pool, int max, int keep) {
        byte[][] range = PoolKeys.poolRange(pool.user(), pool.source());
        List<byte[]> rows = new ArrayList<>();
        Scan scan = new Scan().withStartRow(range[0]).withStopRow(range[1]).addColumn(PoolKeys.FAMILY, PoolKeys.ENTRY)
                .setFilter(new KeyOnlyFilter()).setCaching(1000);
        try (Table t = connection.getTable(table); ResultScanner rs = t.getScanner(scan)) {
            for (Result r : rs) rows.add(r.getRow());
        } catch (IOException e) {
            throw unavailable("scanning a pool to trim it", e);
        }
        if (rows.size() <= max) {
            if (sizes != null) sizes.set(pool.user(), pool.source(), rows.size());
            return 0;
        }
        Map<Long, byte[]> indexOfPin = indexValuesOf(pool.user());
        byte[][] index = new byte[rows.size()][];
        for (int i = 0; i < rows.size(); i++) index[i] = indexOfPin.get(PoolKeys.pinOf(rows.get(i)));
        boolean[] live = new boolean[rows.size()];
        int entries = 0;
        for (int i = 0; i < rows.size(); i++) {
            live[i] = index[i] != null && Arrays.equals(PoolKeys.entryRowOf(pool.user(), PoolKeys.pinOf(rows.get(i)), index[i]), rows.get(i));
            if (live[i]) entries++;
        }
        int kept = entries > max ? keep : entries;
        List<Mutation> deletes = new ArrayList<>();
        int removed = 0;
        int seen = 0;
        for (int i = 0; i < rows.size(); i++) {
            byte[] row = rows.get(i);
            if (!live[i]) {
                deletes.add(new Delete(row)); // an orphan, deleted as readers delete it
            } else if (seen < kept) {
                seen++;
            } else {
                deletes.add(new Delete(row));
                deletes.add(new Delete(PoolKeys.indexRow(pool.user(), PoolKeys.pinOf(row))));
                removed++;
            }
        }
        write(deletes);
        if (sizes != null) sizes.set(pool.user(), pool.source(), kept);
        return removed;
    }

    /**
     * The entries whose user index row points at them; the others are orphans of an interrupted
     * write, deleted here.
     */
    private List<PoolEntry> verified(long userId, List<PoolEntry> entries, List<byte[]> rows) {
        if (entries.isEmpty()) return entries;
        byte[][] index = indexValues(entries.size(), i -> userId, i -> entries.get(i).pinId());
        List<PoolEntry> out = new ArrayList<>(entries.size());
        List<Mutation> orphans = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            byte[] value = index[i];
            boolean current = value != null && Arrays.equals(PoolKeys.entryRowOf(userId, entries.get(i).pinId(), value), rows.get(i));
            if (current && seen.add(entries.get(i).pinId())) {
                out.add(entries.get(i));
            } else if (!current) {
                orphans.add(new Delete(rows.get(i)));
            }
        }
        if (mutator != null) write(orphans); // a replica only skips them: see readOnly
        return out;
    }

    private List<PoolEntry> scan(byte[] start, byte[] stop, int limit, List<byte[]> rows) {
        Scan scan = new Scan().withStartRow(start).withStopRow(stop).addColumn(PoolKeys.FAMILY, PoolKeys.ENTRY);
        if (limit < Integer.MAX_VALUE) scan.setLimit(limit).setCaching(Math.min(limit, 1000));
        List<PoolEntry> out = new ArrayList<>();
        try (Table t = connection.getTable(table); ResultScanner rs = t.getScanner(scan)) {
            for (Result r : rs) {
                rows.add(r.getRow());
                out.add(PoolKeys.decodeEntry(r.getRow(), r.getValue(PoolKeys.FAMILY, PoolKeys.ENTRY)));
            }
        } catch (IOException e) {
            throw unavailable("scanning pools", e);
        }
        return out;
    }

    /**
     * Runs actions (index reads, delivery marks), one round trip per region server per slice of {@value #SLICE}; each
     * action's result, in order. Slices keep a large batch within the client's operation timeout.
     */
    private Object[] batch(List<? extends Row> actions, String what) {
        Object[] results = new Object[actions.size()];
        try (Table t = connection.getTable(table)) {
            for (int from = 0; from < actions.size(); from += SLICE) {
                int to = Math.min(actions.size(), from + SLICE);
                Object[] slice = new Object[to - from];
                t.batch(actions.subList(from, to), slice);
                System.arraycopy(slice, 0, results, from, slice.length);
            }
        } catch (IOException e) {
            throw unavailable(what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException(cluster, what + " interrupted", e);
        }
        return results;
    }

    /**
     * The index value (where the entry is) of the pairs {@code (user(i), pin(i))} for i < n, null for a
     * pair without an entry, in one batch read.
     */
    private byte[][] indexValues(int n, IntToLongFunction user, IntToLongFunction pin) {
        List<Get> gets = new ArrayList<>(n);
        for (int i = 0; i < n; i++) gets.add(new Get(PoolKeys.indexRow(user.applyAsLong(i), pin.applyAsLong(i))).addColumn(PoolKeys.FAMILY, PoolKeys.INDEX));
        Object[] results = batch(gets, "reading pool index rows");
        byte[][] values = new byte[n][];
        for (int i = 0; i < n; i++) values[i] = ((Result) results[i]).getValue(PoolKeys.FAMILY, PoolKeys.INDEX);
        return values;
    }

    /**
     * Every index value of the user by pin, in one scan of his index rows: for a pool past its maximum, whose every
     * row's index is read, a scan of the user's few pools' index rows costs the region server less than as many gets.
     */
    private Map<Long, byte[]> indexValuesOf(long user) {
        byte[][] range = PoolKeys.indexRange(user);
        Map<Long, byte[]> out = new HashMap<>();
        Scan scan = new Scan().withStartRow(range[0]).withStopRow(range[1]).addColumn(PoolKeys.FAMILY, PoolKeys.INDEX).setCaching(1000);
        try (Table t = connection.getTable(table); ResultScanner rs = t.getScanner(scan)) {
            for (Result r : rs) out.put(PoolKeys.pinOfIndexRow(r.getRow()), r.getValue(PoolKeys.FAMILY, PoolKeys.INDEX));
        } catch (IOException e) {
            throw unavailable("reading pool index rows", e);
        }
        return out;
    }

    private void requireWritable() {
        if (mutator == null) throw new IllegalStateException(cluster + " pools are opened read-only here (a replica): no writes");
    }

    private void write(List<Mutation> mutations) {
        if (mutations.isEmpty()) return;
        requireWritable();
        try {
            // In slices: the mutator walks its whole queue on each background submit, so one call with a
            // million mutations (a bulk removal) took minutes of CPU in the client; the last flush still
            // makes the write whole before this returns.
            for (int from = 0; from < mutations.size(); from += MUTATIONS_PER_CALL) {
                mutator.mutate(mutations.subList(from, Math.min(mutations.size(), from + MUTATIONS_PER_CALL)));
            }
            mutator.flush();
        } catch (IOException e) {
            throw unavailable("writing pools", e);
        }
    }

    private StoreUnavailableException unavailable(String what, IOException e) {
        return new StoreUnavailableException(cluster, what + " failed: " + e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()), e);
    }

    static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    @Override
    public void close() {
        if (mutator == null) return;
        try {
            mutator.close();
        } catch (IOException e) {
            throw unavailable("closing the pool writer", e);
        }
    }
}
