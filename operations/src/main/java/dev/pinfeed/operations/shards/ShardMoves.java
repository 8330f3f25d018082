package dev.pinfeed.operations.shards;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.WatchedZnode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;

/**
 * The shard moves under way, in the znode {@code /config/mysql-shard-moves} (next to the shard map;
 * key {@code mysql.shard-moves.znode}) for MySQL shards and {@code /config/redis-shard-moves}
 * ({@code redis.shard-moves.znode}) for Redis virtual shards: the only place that reads or writes them. A move is recorded
 * before it touches anything and stays until {@code finalize} or {@code --undo} ends it, so a second
 * operator (or the same one after a crash) sees what is in flight.
 */
final class ShardMoves {

    static final String ZNODE = "/config/mysql-shard-moves";
    static final String REDIS_ZNODE = "/config/redis-shard-moves";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EMPTY = "{\"moves\":[]}";

    /** Where a move stands. */
    enum Phase {
        /** Copying and catching up; the range still lives on {@code from}, untouched. */
        COPYING,
        /** The range is fenced and its tables renamed away on the host giving it up. */
        CUTOVER,
        /** The range lives on {@code to}; {@code from} keeps its old copy (renamed) until finalize, for --undo. */
        MOVED,
        /** An undo is under way: the range is going back to {@code from}. */
        UNDOING
    }

    /**
     * Shards {@code first..last} going from {@code from} to {@code to}. {@code flip}: where {@code to}'s binlog
     * stood when it took the range over (an undo replays from there), null before.
     */
    record Move(int first, int last, String from, String to, Phase phase, BinlogPosition flip) {
        Move in(Phase next) {
            return new Move(first, last, from, to, next, flip);
        }

        Move flippedAt(BinlogPosition position) {
            return new Move(first, last, from, to, Phase.MOVED, position);
        }

        boolean overlaps(int a, int b) {
            return a <= last && b >= first;
        }

        String range() {
            return first + "-" + last;
        }
    }

    private final CuratorFramework zk;
    private final String path;

    private ShardMoves(CuratorFramework zk, String path) {
        this.zk = zk;
        this.path = path;
    }

    /** The MySQL shard moves. */
    static ShardMoves mysql(CuratorFramework zk, PinfeedConfig config) {
        return new ShardMoves(zk, config.get("mysql.shard-moves.znode", ZNODE));
    }

    /** The Redis virtual-shard moves (their {@code flip} is always null: an undo copies the range back whole). */
    static ShardMoves redis(CuratorFramework zk, PinfeedConfig config) {
        return new ShardMoves(zk, config.get("redis.shard-moves.znode", REDIS_ZNODE));
    }

    List<Move> all() throws Exception {
        return parse(WatchedZnode.read(zk, path, EMPTY));
    }

    Optional<Move> find(int first, int last) throws Exception {
        return all().stream().filter(m -> m.first() == first && m.last() == last).findFirst();
    }

    /** Records a new move; {@link IllegalStateException} if one under way overlaps it. */
    void begin(Move move) throws Exception {
        WatchedZnode.read(zk, path, EMPTY);
        WatchedZnode.update(zk, path, text -> {
            List<Move> moves = parse(text);
            for (Move m : moves) {
                if (m.overlaps(move.first(), move.last())) {
                    throw new IllegalStateException("shards " + m.range() + " are already moving from " + m.from() + " to " + m.to() + " ("
                            + m.phase().name().toLowerCase(java.util.Locale.ROOT) + "): finalize or undo that move first");
                }
            }
            moves.add(move);
            return format(moves);
        });
    }

    /** Replaces the record of the move of exactly {@code move}'s range. */
    void save(Move move) throws Exception {
        WatchedZnode.update(zk, path, text -> {
            List<Move> moves = new ArrayList<>(parse(text));
            moves.removeIf(m -> m.first() == move.first() && m.last() == move.last());
            moves.add(move);
            return format(moves);
        });
    }

    void end(Move move) throws Exception {
        WatchedZnode.update(zk, path, text -> {
            List<Move> moves = new ArrayList<>(parse(text));
            moves.removeIf(m -> m.first() == move.first() && m.last() == move.last());
            return format(moves);
        });
    }

    static List<Move> parse(String text) {
        try {
            List<Move> out = new ArrayList<>();
            for (JsonNode m : JSON.readTree(text).path("moves")) {
                out.add(new Move(m.path("first").asInt(), m.path("last").asInt(), m.path("from").asText(), m.path("to").asText(),
                        Phase.valueOf(m.path("phase").asText()), m.hasNonNull("flip") ? BinlogPosition.parse(m.path("flip").asText()) : null));
            }
            return out;
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalStateException("the shard moves record is unreadable: " + e.getMessage(), e);
        }
    }

    static String format(List<Move> moves) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode list = root.putArray("moves");
        for (Move m : moves) {
            ObjectNode o = list.addObject().put("first", m.first()).put("last", m.last()).put("from", m.from()).put("to", m.to())
                    .put("phase", m.phase().name());
            if (m.flip() != null) o.put("flip", m.flip().toString());
        }
        return root.toString();
    }
}
