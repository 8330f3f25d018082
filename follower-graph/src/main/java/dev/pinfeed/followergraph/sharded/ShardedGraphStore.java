package dev.pinfeed.followergraph.sharded;

import dev.pinfeed.followergraph.CommandOutcome;
import dev.pinfeed.followergraph.Counts;
import dev.pinfeed.followergraph.Edge;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.Page;
import dev.pinfeed.followergraph.Receiver;
import dev.pinfeed.followergraph.UserRelation;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The follower graph over a {@link GraphBackend}, shared by every store on one (the Redis store, and
 * the in-memory one the unit tests run, so they exercise the code that runs against Redis). A facade:
 * {@link GraphWrites} is the write protocol, {@link PointQueries} the point and batch queries,
 * {@link NewestFirstLists} the paged lists, {@link BoardReceivers} a board's fan-out list.
 */
public abstract class ShardedGraphStore implements GraphStore {

    private final GraphBackend backend;
    private final GraphKeys keys;
    private final GraphWrites writes;
    private final PointQueries points;
    private final NewestFirstLists lists;
    private final BoardReceivers receivers;
    private final GraphKeyspace keyspace;

    protected ShardedGraphStore(GraphBackend backend, GraphKeys keys) {
        GraphShards shards = new GraphShards(backend, keys);
        this.backend = backend;
        this.keys = keys;
        this.writes = new GraphWrites(shards);
        this.points = new PointQueries(shards);
        this.lists = new NewestFirstLists(shards);
        this.receivers = new BoardReceivers(shards, points, lists);
        this.keyspace = new GraphKeyspace(backend, keys, writes);
    }

    public GraphKeys keys() {
        return keys;
    }

    /** The keys as an audit sees them: scans, whole-key reads, repairs. Not for services. */
    public GraphKeyspace keyspace() {
        return keyspace;
    }

    @Override
    public void apply(GraphCommand command) {
        writes.apply(command);
    }

    /** Pipelined: three round trips per instance for the whole batch (see {@link GraphWrites#applyAll}). */
    @Override
    public List<CommandOutcome> applyAll(List<GraphCommand> commands) {
        return writes.applyAll(commands);
    }

    @Override
    public UserRelation relation(long followerId, long userId) {
        return points.relation(followerId, userId);
    }

    @Override
    public boolean followsBoard(long userId, long boardId) {
        return points.followsBoard(userId, boardId);
    }

    @Override
    public Set<Long> followedAmong(long userId, Collection<Long> candidates) {
        return points.followedAmong(userId, candidates);
    }

    @Override
    public Set<Long> followedBoardsAmong(long userId, Collection<Long> boardIds) {
        return points.followedBoardsAmong(userId, boardIds);
    }

    @Override
    public Counts counts(long userId) {
        return points.counts(userId);
    }

    @Override
    public long boardsOwnedCount(long ownerId) {
        return points.boardsOwnedCount(ownerId);
    }

    @Override
    public OptionalLong boardOwner(long boardId) {
        return points.boardOwner(boardId);
    }

    @Override
    public Page<Edge> followers(long userId, String cursor, int limit) {
        return lists.followers(userId, cursor, limit);
    }

    @Override
    public Page<Edge> followingUsers(long userId, String cursor, int limit) {
        return lists.followingUsers(userId, cursor, limit);
    }

    @Override
    public Page<Edge> followingBoards(long userId, String cursor, int limit) {
        return lists.followingBoards(userId, cursor, limit);
    }

    @Override
    public Page<Edge> boardsOf(long ownerId, String cursor, int limit) {
        return lists.boardsOf(ownerId, cursor, limit);
    }

    @Override
    public Page<Receiver> receivers(long boardId, String cursor, int limit) {
        return receivers.page(boardId, cursor, limit);
    }

    @Override
    public long boardFollowerCount(long boardId) {
        return receivers.count(boardId);
    }

    @Override
    public boolean followsInterest(long userId, long interestId) {
        return points.followsInterest(userId, interestId);
    }

    @Override
    public Page<Edge> followingInterests(long userId, String cursor, int limit) {
        return lists.followingInterests(userId, cursor, limit);
    }

    @Override
    public long followingInterestsCount(long userId) {
        return points.cardinality(userId, keys.interestsFollowed(userId));
    }

    @Override
    public Page<Edge> interestFollowers(long interestId, String cursor, int limit) {
        return lists.interestFollowers(interestId, cursor, limit);
    }

    @Override
    public long interestFollowerCount(long interestId) {
        return points.cardinality(interestId, keys.interestFollowers(interestId));
    }

    @Override
    public Set<Long> interestFollowersAmong(long interestId, Collection<Long> users) {
        return points.membersAmong(interestId, keys.interestFollowers(interestId), users);
    }

    @Override
    public Set<Long> boardReceiversAmong(long boardId, Collection<Long> users) {
        return receivers.among(boardId, users);
    }

    @Override
    public void close() {
        writes.close();
        backend.close();
    }
}
