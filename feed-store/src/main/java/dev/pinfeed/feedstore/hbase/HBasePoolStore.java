package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * {@link PoolStore} in HBase, rows per {@link PoolKeys}. Writes go through one BufferedMutator
 * (seed 002: batching, not a WAL lock per fan-out write), flushed before a call returns; new rows are
 * flushed before old ones are deleted, so a crash in between leaves an orphan row (skipped and
 * cleaned up by readers, which check each entry against the user's index row), never a lost pin.
 */
public final class HBasePoolStore implements PoolStore {

    private final Connection connection;
    private final TableName table;
    private final String cluster;
    private final BufferedMutator mutator;

    public HBasePoolStore(Connection connection, String cluster) {
        this(connection, HBaseClusters.POOLS, cluster);
    }

    HBasePoolStore(Connection connection, TableName table, String cluster) {
        this.connection = connection;
        this.table = table;
        this.cluster = cluster;
        try {
            this.mutator = connection.getBufferedMutator(new BufferedMutatorParams(table).writeBufferSize(4L << 20));
        } catch (IOException e) {
            throw unavailable("opening the pool writer", e);
        }
    }

    @Override
    public void upsert(Collection<PoolEntry> entries) {
        if (entries.isEmpty()) return;
        Map<List<Long>, PoolEntry> latest = new LinkedHashMap<>();
        for (PoolEntry e : entries) latest.put(List.of(e.userId(), e.pinId()), e); // the last entry for a (user, pin) wins
        List<PoolEntry> list = new ArrayList<>(latest.values());
        Result[] index = get(list.stream().map(e -> new Get(PoolKeys.indexRow(e.userId(), e.pinId()))
                .addColumn(PoolKeys.FAMILY, PoolKeys.INDEX)).toList());
        List<Mutation> puts = new ArrayList<>(list.size() * 2);
        List<Mutation> deletes = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            PoolEntry e = list.get(i);
            byte[] row = PoolKeys.entryRow(e);
            puts.add(new Put(row).addColumn(PoolKeys.FAMILY, PoolKeys.ENTRY, PoolKeys.entryValue(e)));
            long inverted = PoolKeys.invert(e.score());
            puts.add(new Put(PoolKeys.indexRow(e.userId(), e.pinId()))
                    .addColumn(PoolKeys.FAMILY, PoolKeys.INDEX, PoolKeys.indexValue(e.source(), inverted)));
            byte[] old = index[i].getValue(PoolKeys.FAMILY, PoolKeys.INDEX);
            if (old != null) {
                byte[] oldRow = PoolKeys.entryRowOf(e.userId(), e.pinId(), old);
                if (!Arrays.equals(oldRow, row)) deletes.add(new Delete(oldRow));
            }
        }
        write(puts);
        write(deletes);
    }

    @Override
    public void remove(long userId, Collection<Long> pinIds) {
        if (pinIds.isEmpty()) return;
        List<Long> pins = List.copyOf(new HashSet<>(pinIds));
        Result[] index = get(pins.stream().map(p -> new Get(PoolKeys.indexRow(userId, p)).addColumn(PoolKeys.FAMILY, PoolKeys.INDEX)).toList());
        List<Mutation> deletes = new ArrayList<>();
        for (int i = 0; i < pins.size(); i++) {
            byte[] value = index[i].getValue(PoolKeys.FAMILY, PoolKeys.INDEX);
            if (value == null) continue;
            deletes.add(new Delete(PoolKeys.entryRowOf(userId, pins.get(i), value)));
            deletes.add(new Delete(PoolKeys.indexRow(userId, pins.get(i))));
        }
        write(deletes);
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

    @Override
    public List<PoolEntry> all(long userId) {
        byte[][] range = PoolKeys.userRange(userId);
        List<byte[]> rows = new ArrayList<>();
        List<PoolEntry> entries = scan(range[0], range[1], Integer.MAX_VALUE, rows);
        return verified(userId, entries, rows);
    }

    @Override
    public int trim(long userId, int maxPerSource) {
        Map<Source, Integer> kept = new HashMap<>();
        List<Long> drop = new ArrayList<>();
        for (PoolEntry e : all(userId)) {
            if (kept.merge(e.source(), 1, Integer::sum) > maxPerSource) drop.add(e.pinId());
        }
        remove(userId, drop);
        return drop.size();
    }

    /**
     * The entries whose user index row points at them; the others are orphans of an interrupted
     * write, deleted here.
     */
    private List<PoolEntry> verified(long userId, List<PoolEntry> entries, List<byte[]> rows) {
        if (entries.isEmpty()) return entries;
        Result[] index = get(entries.stream().map(e -> new Get(PoolKeys.indexRow(userId, e.pinId()))
                .addColumn(PoolKeys.FAMILY, PoolKeys.INDEX)).toList());
        List<PoolEntry> out = new ArrayList<>(entries.size());
        List<Mutation> orphans = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            byte[] value = index[i].getValue(PoolKeys.FAMILY, PoolKeys.INDEX);
            boolean current = value != null && Arrays.equals(PoolKeys.entryRowOf(userId, entries.get(i).pinId(), value), rows.get(i));
            if (current && seen.add(entries.get(i).pinId())) {
                out.add(entries.get(i));
            } else if (!current) {
                orphans.add(new Delete(rows.get(i)));
            }
        }
        write(orphans);
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

    private Result[] get(List<Get> gets) {
        if (gets.isEmpty()) return new Result[0];
        try (Table t = connection.getTable(table)) {
            return t.get(gets);
        } catch (IOException e) {
            throw unavailable("reading pool index rows", e);
        }
    }

    private void write(List<Mutation> mutations) {
        if (mutations.isEmpty()) return;
        try {
            mutator.mutate(mutations);
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
        try {
            mutator.close();
        } catch (IOException e) {
            throw unavailable("closing the pool writer", e);
        }
    }
}
