package dev.pinfeed.followergraph.sharded;

import static dev.pinfeed.followergraph.sharded.GraphShards.distinct;
import static dev.pinfeed.followergraph.sharded.GraphShards.str;

import dev.pinfeed.followergraph.Counts;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.followergraph.sharded.GraphBackend.Reads;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/** Point and batch queries: relations, "which of these", board owners, counts. Each is one round trip per instance involved. */
final class PointQueries {

    private final GraphShards shards;
    private final GraphKeys keys;

    PointQueries(GraphShards shards) {
        this.shards = shards;
        this.keys = shards.keys;
    }

    UserRelation relation(long followerId, long userId) {
        Reads r = shards.reads(shards.instance(followerId));
        Supplier<Long> explicit = r.zscore(keys.followingExplicit(followerId), str(userId));
        Supplier<Long> implicit = r.zscore(keys.followingImplicit(followerId), str(userId));
        r.execute();
        if (explicit.get() != null) return UserRelation.EXPLICIT;
        return implicit.get() != null ? UserRelation.IMPLICIT : UserRelation.NONE;
    }

    boolean followsBoard(long userId, long boardId) {
        return followedBoardsAmong(userId, List.of(boardId)).contains(boardId);
    }

    /** One round trip: both following sets live on the user's shard. */
    Set<Long> followedAmong(long userId, Collection<Long> candidates) {
        Cursors.checkBatch(candidates);
        List<String> ids = distinct(candidates);
        if (ids.isEmpty()) return Set.of();
        Reads r = shards.reads(shards.instance(userId));
        Supplier<List<Long>> explicit = r.zmscore(keys.followingExplicit(userId), ids);
        Supplier<List<Long>> implicit = r.zmscore(keys.followingImplicit(userId), ids);
        r.execute();
        Set<Long> out = new HashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            if (explicit.get().get(i) != null || implicit.get().get(i) != null) out.add(Long.parseLong(ids.get(i)));
        }
        return out;
    }

    /** One round trip per instance holding owner buckets of the boards, then one to the user's instance. */
    Set<Long> followedBoardsAmong(long userId, Collection<Long> boardIds) {
        Cursors.checkBatch(boardIds);
        List<String> boards = distinct(boardIds);
        if (boards.isEmpty()) return Set.of();
        Map<String, Long> owners = owners(boards);
        List<String> ownerIds = owners.values().stream().distinct().map(GraphShards::str).toList();

        Reads r = shards.reads(shards.instance(userId));
        Supplier<List<Long>> followed = r.zmscore(keys.boardsFollowed(userId), boards);
        Supplier<List<Boolean>> unfollowed = r.smismember(keys.boardsUnfollowed(userId), boards);
        Supplier<List<Long>> ownerFollowed = ownerIds.isEmpty() ? List::of : r.zmscore(keys.followingExplicit(userId), ownerIds);
        r.execute();
        Set<Long> explicitOwners = new HashSet<>();
        for (int i = 0; i < ownerIds.size(); i++) {
            if (ownerFollowed.get().get(i) != null) explicitOwners.add(Long.parseLong(ownerIds.get(i)));
        }
        Set<Long> out = new HashSet<>();
        for (int i = 0; i < boards.size(); i++) {
            Long owner = owners.get(boards.get(i));
            boolean viaOwner = owner != null && explicitOwners.contains(owner) && !unfollowed.get().get(i);
            if (followed.get().get(i) != null || viaOwner) out.add(Long.parseLong(boards.get(i)));
        }
        return out;
    }

    /** Owners of the boards that have one: one pipeline per instance, one HMGET per owner bucket. */
    private Map<String, Long> owners(List<String> boards) {
        Map<String, Map<String, List<String>>> byInstanceAndKey = new LinkedHashMap<>();
        for (String b : boards) {
            long board = Long.parseLong(b);
            byInstanceAndKey.computeIfAbsent(shards.instance(board), k -> new LinkedHashMap<>())
                    .computeIfAbsent(keys.boardOwners(board), k -> new ArrayList<>()).add(b);
        }
        Map<String, Long> out = new HashMap<>();
        for (Map.Entry<String, Map<String, List<String>>> inst : byInstanceAndKey.entrySet()) {
            Reads r = shards.reads(inst.getKey());
            Map<List<String>, Supplier<List<String>>> replies = new LinkedHashMap<>();
            inst.getValue().forEach((key, fields) -> replies.put(fields, r.hmget(key, fields)));
            r.execute();
            replies.forEach((fields, reply) -> {
                for (int i = 0; i < fields.size(); i++) {
                    String owner = reply.get().get(i);
                    if (owner != null) out.put(fields.get(i), Long.parseLong(owner));
                }
            });
        }
        return out;
    }

    /** The board's owner; null when no command named one yet. */
    Long ownerOf(long boardId) {
        return owners(List.of(str(boardId))).get(str(boardId));
    }

    OptionalLong boardOwner(long boardId) {
        Long owner = ownerOf(boardId);
        return owner == null ? OptionalLong.empty() : OptionalLong.of(owner);
    }

    long boardsOwnedCount(long ownerId) {
        Reads r = shards.reads(shards.instance(ownerId));
        Supplier<Long> owned = r.zcard(keys.boardsOwned(ownerId));
        r.execute();
        return owned.get();
    }

    boolean followsInterest(long userId, long interestId) {
        Reads r = shards.reads(shards.instance(userId));
        Supplier<Long> since = r.zscore(keys.interestsFollowed(userId), str(interestId));
        r.execute();
        return since.get() != null;
    }

    /** Which of {@code users} are members of the sorted set {@code key} (tagged with {@code tagOf}'s shard). */
    Set<Long> membersAmong(long tagOf, String key, Collection<Long> users) {
        Cursors.checkBatch(users);
        List<String> ids = distinct(users);
        if (ids.isEmpty()) return Set.of();
        Reads r = shards.reads(shards.instance(tagOf));
        Supplier<List<Long>> scores = r.zmscore(key, ids);
        r.execute();
        Set<Long> out = new HashSet<>();
        for (int i = 0; i < ids.size(); i++) if (scores.get().get(i) != null) out.add(Long.parseLong(ids.get(i)));
        return out;
    }

    /** ZCARD of {@code key}, a key tagged with {@code tagOf}'s shard. */
    long cardinality(long tagOf, String key) {
        Reads r = shards.reads(shards.instance(tagOf));
        Supplier<Long> n = r.zcard(key);
        r.execute();
        return n.get();
    }

    Counts counts(long userId) {
        Reads r = shards.reads(shards.instance(userId));
        Supplier<Long> re = r.zcard(keys.followersExplicit(userId));
        Supplier<Long> ri = r.zcard(keys.followersImplicit(userId));
        Supplier<Long> fe = r.zcard(keys.followingExplicit(userId));
        Supplier<Long> fi = r.zcard(keys.followingImplicit(userId));
        Supplier<Long> bf = r.zcard(keys.boardsFollowed(userId));
        r.execute();
        return new Counts(re.get(), ri.get(), fe.get(), fi.get(), bf.get());
    }
}
