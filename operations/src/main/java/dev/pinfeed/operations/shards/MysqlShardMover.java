package dev.pinfeed.operations.shards;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.PinfeedConfig.ReplicatedHost;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.operations.shards.ShardMoves.Move;
import dev.pinfeed.operations.shards.ShardMoves.Phase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;

/**
 * Moves a range of logical MySQL shards from its host to another, online (seed 003's table move):
 * <ol>
 *   <li>copy the shard databases from a consistent snapshot ({@link MariaDbDump}), noting its binlog position;</li>
 *   <li>replay the source's binlog from there for those databases only ({@link BinlogReplay}) until the copy is
 *       close behind;</li>
 *   <li>cut over: fence the range in the live shard map (readers and writers wait), rename the range's tables
 *       away on the source ({@code db00042} → {@code db00042__moved}: the seed's rename, which waits for writes in
 *       flight and refuses any late one), wait until the copy has applied the source's last write, then point the
 *       range at the new host and lift the fence in one map update;</li>
 *   <li>keep the old copy, renamed, until {@code finalize}; {@link #undo} replays what the new host wrote since
 *       the flip onto it and moves the range back, losing nothing.</li>
 * </ol>
 * Runs with the administrative account ({@code mysql.admin.user}); the move is recorded in {@link ShardMoves}.
 */
final class MysqlShardMover {

    static final String MOVED_SUFFIX = "__moved";
    /**
     * The most shards one move takes: writers of the range wait while its cutover renames every table of the range
     * (measured on the demo dataset: 25 ms per shard for a move, 58 ms for an undo), and give up after
     * {@link dev.pinfeed.mysqlshards.ShardDataSources#FENCE_WAIT}; 128 shards pause them 3 to 8 s.
     */
    static final int MAX_SHARDS_PER_MOVE = 128;
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofMinutes(30);
    private static final Duration CUTOVER_TIMEOUT = Duration.ofSeconds(20);
    /** Lets every watcher hear the fence before the rename turns late writers away. */
    private static final long FENCE_SETTLE_MS = 100;

    /** What a move or an undo did: how long it took, how long writers of the range waited, what it copied. */
    record Report(Duration took, Duration writePause, int databases, long rowsReplayed, BinlogPosition flip) {}

    private final PinfeedConfig config;
    private final CuratorFramework zk;
    private final ShardMoves moves;
    private final String admin;
    private final String adminPassword;
    private final Consumer<String> step;
    private final Consumer<String> waiting;
    private final Clock clock;
    private final BooleanSupplier stop;

    /** {@code stop}: Ctrl-C was pressed; a move or undo stops at its next check before the cutover and rolls back. */
    MysqlShardMover(PinfeedConfig config, CuratorFramework zk, Consumer<String> step, Consumer<String> waiting, BooleanSupplier stop, Clock clock) {
        this.config = config;
        this.stop = stop;
        this.zk = zk;
        this.moves = ShardMoves.mysql(zk, config);
        this.admin = config.require("mysql.admin.user");
        this.adminPassword = config.get("mysql.admin.password", "");
        this.step = step;
        this.waiting = waiting;
        this.clock = clock;
    }

    /** The map in force (seeded from the configuration if ZooKeeper has none yet). */
    MysqlShardMap map() throws Exception {
        return MysqlShardConfig.current(zk, config);
    }

    /** Compare-and-sets the live map to {@code edit} of it; returns the map written. */
    private MysqlShardMap updateMap(UnaryOperator<MysqlShardMap> edit) throws Exception {
        return MysqlShardConfig.update(zk, MysqlShardConfig.znode(config), MysqlShardMap.HostAddresses.from(config), edit);
    }

    List<Move> moves() throws Exception {
        return moves.all();
    }

    Report move(int first, int last, String to) throws Exception {
        long started = clock.millis();
        MysqlShardMap map = map();
        if (last - first + 1 > MAX_SHARDS_PER_MOVE) {
            throw new IllegalArgumentException("move at most " + MAX_SHARDS_PER_MOVE + " shards at a time (the cutover pauses the range's writers"
                    + " about 25-60 ms per shard); split " + first + "-" + last + " into several moves");
        }
        String from = hostOfWhole(map, first, last);
        if (from.equals(to)) throw new IllegalArgumentException("shards " + first + "-" + last + " already live on " + to);
        ReplicatedHost source = map.host(from);
        ReplicatedHost target = addresses(map).find(to).orElseThrow(() -> new IllegalArgumentException("no MySQL host '" + to
                + "' in the shard map or the configuration (mysql." + to + ".master)"));
        List<String> databases = databases(first, last);
        Move move = new Move(first, last, from, to, Phase.COPYING, null);
        moves.begin(move);
        try {
            step.accept(String.format(Locale.ROOT, "copying %d shard databases (%d-%d) from %s to %s", databases.size(), first, last, from, to));
            BinlogPosition snapshot = copy(source.master(), target.master(), databases);
            checkStop();
            step.accept("copied at " + from + "'s binlog position " + snapshot + "; replaying " + from + "'s changes since");
            try (Connection sourceDb = connect(source.master()); Connection targetDb = connect(target.master());
                 Connection applyDb = connect(target.master())) {
                TableShapes shapes = TableShapes.of(targetDb, databases.get(0));
                try (BinlogReplay replay = new BinlogReplay(source.master(), admin, adminPassword, snapshot, Set.copyOf(databases),
                        UnaryOperator.identity(), applyDb, shapes).start()) {
                    catchUp(replay, sourceDb, from);
                    moves.save(move.in(Phase.CUTOVER));
                    BinlogPosition[] flip = new BinlogPosition[1];
                    Duration pause = cutOver(first, last, sourceDb, databases, shapes.tables(), replay, "cutover: copy",
                            () -> flip[0] = BinlogPosition.current(targetDb), target);
                    moves.save(move.flippedAt(flip[0]));
                    step.accept(String.format(Locale.ROOT, "shards %d-%d now live on %s (writers paused %d ms); %s keeps its copy as db…%s until finalize",
                            first, last, to, pause.toMillis(), from, MOVED_SUFFIX));
                    return new Report(Duration.ofMillis(clock.millis() - started), pause, databases.size(), replay.rowsApplied(), flip[0]);
                }
            }
        } catch (Exception | Error e) {
            Move now = moves.find(first, last).orElse(null);
            if (now != null && now.phase() != Phase.MOVED) {
                // Nothing moved: the target's partial copy is unused, and the record would only block a retry.
                try {
                    if (hostOfWhole(map(), first, last).equals(from)) {
                        try (Connection targetDb = connect(target.master())) {
                            dropDatabases(targetDb, databases);
                        }
                        step.accept("dropped " + to + "'s partial copy of shards " + first + "-" + last);
                    }
                } catch (Exception cleanup) {
                    e.addSuppressed(cleanup);
                }
                moves.end(move);
            }
            throw e;
        }
    }

    /** Moves the range of a move not yet finalized back to where it came from, with what its new host wrote since. */
    Report undo(int first, int last) throws Exception {
        long started = clock.millis();
        Move move = moves.find(first, last).orElseThrow(() -> new IllegalArgumentException("no move of shards " + first + "-" + last
                + " is under way (./pinfeed shards status)"));
        if (move.phase() == Phase.COPYING || move.phase() == Phase.CUTOVER) return rollBack(move, started);
        if (move.flip() == null) {
            throw new IllegalStateException("the move of shards " + move.range() + " has no flip position: it cannot be undone, only finalized");
        }
        MysqlShardMap map = map();
        ReplicatedHost back = addresses(map).find(move.from()).orElseThrow(() -> new IllegalStateException("host " + move.from() + " is unknown"));
        ReplicatedHost away = map.host(move.to());
        List<String> databases = databases(first, last);
        moves.save(move.in(Phase.UNDOING));
        step.accept("replaying " + move.to() + "'s changes since " + move.flip() + " onto " + move.from() + "'s old copy");
        try (Connection awayDb = connect(away.master()); Connection backDb = connect(back.master()); Connection applyDb = connect(back.master())) {
            TableShapes shapes = TableShapes.of(backDb, movedAway(databases.get(0)));
            try (BinlogReplay replay = new BinlogReplay(away.master(), admin, adminPassword, move.flip(), Set.copyOf(databases),
                    MysqlShardMover::movedAway, applyDb, shapes).start()) {
                catchUp(replay, awayDb, move.to());
                Duration pause = cutOver(first, last, awayDb, databases, shapes.tables(), replay, "undo: old copy",
                        () -> rename(backDb, databases, shapes.tables(), MysqlShardMover::movedAway, UnaryOperator.identity()), back);
                dropDatabases(awayDb, databases.stream().map(MysqlShardMover::movedAway).toList());
                moves.end(move);
                step.accept(String.format(Locale.ROOT, "shards %d-%d back on %s (writers paused %d ms)", first, last, move.from(), pause.toMillis()));
                return new Report(Duration.ofMillis(clock.millis() - started), pause, databases.size(), replay.rowsApplied(), null);
            }
        }
    }

    /** What a cutover does once the copy has the giver's last write, before the map changes. */
    @FunctionalInterface
    private interface BeforeFlip {
        void run() throws SQLException;
    }

    /**
     * The cutover of a move or an undo: fences the range, renames its tables away on {@code giver} (waiting for
     * writes in flight, turning late ones away), waits until {@code replay} has applied the giver's last write,
     * runs {@code beforeFlip}, then points the range at {@code taker} and lifts the fence in one map update. On
     * any failure before the flip the giver gets its tables back and the fence goes. Returns how long writers waited.
     */
    private Duration cutOver(int first, int last, Connection giver, List<String> databases, List<String> tables, BinlogReplay replay,
                             String copyName, BeforeFlip beforeFlip, ReplicatedHost taker) throws Exception {
        long fenced = clock.millis();
        fence(first, last);
        try {
            Thread.sleep(FENCE_SETTLE_MS);
            rename(giver, databases, tables, UnaryOperator.identity(), MysqlShardMover::movedAway);
            BinlogPosition end = BinlogPosition.current(giver);
            replay.awaitApplied(end, CUTOVER_TIMEOUT, r -> waiting.accept(copyName + " at " + r.applied() + ", giving host at " + end));
            beforeFlip.run();
        } catch (Exception | Error e) {
            // Nothing moved yet: the giver gets its tables back and the range its writers.
            restore(giver, databases, tables);
            unfence(first, last);
            throw e;
        }
        updateMap(m -> m.assigning(first, last, taker).unfencing(first, last));
        return Duration.ofMillis(clock.millis() - fenced);
    }

    /**
     * Rolls back a move its mover left unfinished (killed while copying or cutting over): the source gets its
     * tables back under their names, the fence goes, the target's partial copy is dropped, the record ends.
     * If the map already names the target, the move did finish: it is recorded as moved (finalize it; with no
     * flip position it cannot be undone).
     */
    private Report rollBack(Move move, long started) throws Exception {
        MysqlShardMap map = map();
        List<String> databases = databases(move.first(), move.last());
        if (hostOfWhole(map, move.first(), move.last()).equals(move.to())) {
            unfence(move.first(), move.last());
            moves.save(new Move(move.first(), move.last(), move.from(), move.to(), Phase.MOVED, null));
            throw new IllegalStateException("shards " + move.range() + " already live on " + move.to() + ": the move finished before its mover"
                    + " stopped; finalize it (./pinfeed shards finalize --shards " + move.range() + ")");
        }
        ReplicatedHost source = map.host(move.from());
        ReplicatedHost target = addresses(map).find(move.to()).orElseThrow(() -> new IllegalStateException("host " + move.to() + " is unknown"));
        try (Connection sourceDb = connect(source.master()); Connection targetDb = connect(target.master())) {
            String probe = databases.get(0);
            boolean renamed = !TableShapes.exists(sourceDb, probe);
            List<String> tables = TableShapes.of(sourceDb, renamed ? movedAway(probe) : probe).tables();
            restore(sourceDb, databases, tables);
            unfence(move.first(), move.last());
            dropDatabases(targetDb, databases);
        }
        moves.end(move);
        step.accept("rolled back the unfinished move of shards " + move.range() + ": they live on " + move.from() + " as before; "
                + move.to() + "'s partial copy dropped");
        return new Report(Duration.ofMillis(clock.millis() - started), Duration.ZERO, databases.size(), 0, null);
    }

    /** Ends a finished move: the old host's renamed copy is dropped; no undo after this. */
    Move finalizeMove(int first, int last) throws Exception {
        Move move = moves.find(first, last).orElseThrow(() -> new IllegalArgumentException("no move of shards " + first + "-" + last
                + " is under way (./pinfeed shards status)"));
        if (move.phase() != Phase.MOVED) {
            throw new IllegalStateException("the move of shards " + move.range() + " is " + move.phase().name().toLowerCase(Locale.ROOT)
                    + ", not finished: nothing to finalize");
        }
        ReplicatedHost old = addresses(map()).find(move.from()).orElseThrow(() -> new IllegalStateException("host " + move.from() + " is unknown"));
        try (Connection c = connect(old.master())) {
            dropDatabases(c, databases(first, last).stream().map(MysqlShardMover::movedAway).toList());
        }
        moves.end(move);
        return move;
    }

    /**
     * Opens shards {@code first..last} past the end of the map on {@code host}: creates their databases with
     * {@code schema}, then grows the live map and, unless {@code keepNewUsers}, sends new users there. Nothing
     * moves: existing objects stay where their ids say (seed 000, "we open new shards").
     */
    MysqlShardMap open(int first, int last, String host, List<String> schema, boolean keepNewUsers) throws Exception {
        MysqlShardMap map = map();
        if (first != map.shardCount()) {
            throw new IllegalArgumentException("new shards start where the map ends: at " + map.shardCount() + ", not " + first
                    + " (shards 0-" + (map.shardCount() - 1) + " exist; send new users to existing ones with shards new-users)");
        }
        if (last >= MysqlShardMap.MAX_SHARDS) throw new IllegalArgumentException("shards end at " + (MysqlShardMap.MAX_SHARDS - 1));
        ReplicatedHost target = addresses(map).find(host).orElseThrow(() -> new IllegalArgumentException("no MySQL host '" + host
                + "' in the shard map or the configuration (mysql." + host + ".master)"));
        List<Integer> shards = new ArrayList<>();
        for (int s = first; s <= last; s++) shards.add(s);
        try (Connection c = connect(target.master()); Statement st = c.createStatement()) {
            dev.pinfeed.operations.provision.Provisioner.createShardDatabases(st, host, shards, schema, waiting);
        }
        step.accept("created " + shards.size() + " shard databases on " + host);
        return updateMap(m -> {
            MysqlShardMap grown = m.growing(last, target);
            return keepNewUsers ? grown : grown.withNewUsers(List.of(new MysqlShardMap.Span(first, last)));
        });
    }

    /** Sends new users to {@code spans} (empty: where the configuration says, {@code ids.open-shards}). */
    MysqlShardMap newUsers(List<MysqlShardMap.Span> spans) throws Exception {
        map(); // seeds the znode when absent
        return updateMap(m -> m.withNewUsers(spans));
    }

    /** The databases dumped from {@code source} straight into {@code target}; where the snapshot stands in the source's binlog. */
    private BinlogPosition copy(HostPort source, HostPort target, List<String> databases) throws Exception {
        MariaDbDump tools = new MariaDbDump(admin, adminPassword, config.mysqlTls());
        try (MariaDbDump.Loader loader = tools.loader(target)) {
            MariaDbDump.Snapshot snapshot = tools.dump(source, databases, loader,
                    n -> waiting.accept("copied " + n + "/" + databases.size() + " databases"));
            loader.finish();
            return snapshot.binlog();
        }
    }

    private void catchUp(BinlogReplay replay, Connection sourceDb, String source) throws Exception {
        BinlogPosition now = BinlogPosition.current(sourceDb);
        replay.awaitApplied(now, CATCH_UP_TIMEOUT, r -> {
            checkStop();
            waiting.accept("catching up: copy at " + r.applied() + ", " + source + " at " + now + " (" + r.rowsApplied() + " rows replayed)");
        });
        checkStop();
        step.accept("caught up with " + source + " (" + replay.rowsApplied() + " rows replayed); cutting over");
    }

    private void checkStop() {
        if (stop.getAsBoolean()) throw new IllegalStateException("interrupted before the cutover: the range stays where it was");
    }

    private void fence(int first, int last) throws Exception {
        updateMap(m -> m.fencing(first, last));
    }

    private void unfence(int first, int last) throws Exception {
        updateMap(m -> m.unfencing(first, last));
    }

    /** Moves every table of {@code databases} from {@code from(db)} to {@code to(db)} in one atomic RENAME, dropping the emptied databases. */
    static void rename(Connection c, List<String> databases, List<String> tables, UnaryOperator<String> from, UnaryOperator<String> to)
            throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String db : databases) st.execute("CREATE DATABASE IF NOT EXISTS `" + to.apply(db) + "`");
            List<String> pairs = new ArrayList<>();
            for (String db : databases) {
                for (String t : tables) pairs.add("`" + from.apply(db) + "`.`" + t + "` TO `" + to.apply(db) + "`.`" + t + "`");
            }
            st.execute("RENAME TABLE " + String.join(", ", pairs));
        }
        dropDatabases(c, databases.stream().map(from).toList());
    }

    /** After a failed cutover: the source's tables back under their names, wherever the rename got. */
    private static void restore(Connection c, List<String> databases, List<String> tables) {
        try (Statement st = c.createStatement()) {
            for (String db : databases) {
                st.execute("CREATE DATABASE IF NOT EXISTS `" + db + "`");
                for (String t : tables) {
                    if (exists(st, movedAway(db), t)) st.execute("RENAME TABLE `" + movedAway(db) + "`.`" + t + "` TO `" + db + "`.`" + t + "`");
                }
                st.execute("DROP DATABASE IF EXISTS `" + movedAway(db) + "`");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("restoring the source's tables after a failed cutover failed: " + e.getMessage()
                    + " (rename db…" + MOVED_SUFFIX + " tables back by hand, docs/operations.md)", e);
        }
    }

    private static boolean exists(Statement st, String db, String table) throws SQLException {
        try (var rs = st.executeQuery("SELECT 1 FROM information_schema.tables WHERE table_schema = '" + db + "' AND table_name = '" + table + "'")) {
            return rs.next();
        }
    }

    private static void dropDatabases(Connection c, List<String> databases) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String db : databases) st.execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
    }

    static String movedAway(String database) {
        return database + MOVED_SUFFIX;
    }

    static List<String> databases(int first, int last) {
        List<String> out = new ArrayList<>();
        for (int s = first; s <= last; s++) out.add(MysqlShardMap.databaseName(s));
        return out;
    }

    /** The one host holding all of {@code first..last}, or {@link IllegalArgumentException}. */
    static String hostOfWhole(MysqlShardMap map, int first, int last) {
        if (first < 0 || last < first || last >= map.shardCount()) {
            throw new IllegalArgumentException("shards " + first + "-" + last + " are not a range of the shard map (0-" + (map.shardCount() - 1) + ")");
        }
        String host = map.hostOf(first);
        for (int s = first; s <= last; s++) {
            if (!map.hostOf(s).equals(host)) {
                throw new IllegalArgumentException("shards " + first + "-" + last + " live on more than one host (" + host + ", " + map.hostOf(s)
                        + "): move one host's range at a time");
            }
        }
        return host;
    }

    private MysqlShardMap.HostAddresses addresses(MysqlShardMap map) {
        return map.addresses().orElse(MysqlShardMap.HostAddresses.from(config));
    }

    private Connection connect(HostPort master) throws SQLException {
        return DriverManager.getConnection(config.mysqlJdbcUrl(master), admin, adminPassword);
    }
}
