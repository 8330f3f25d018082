package dev.pinfeed.idallocator;

import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Where new objects go (Pinterest): a new user on a shard drawn evenly from the open shards; every
 * other object on the shard of the object it belongs to, so one shard answers for a user's boards
 * and a board's pins. Nothing ever moves out of its shard: placement only reads the parent's ID.
 */
public final class ShardPlacement {

    private final Supplier<OpenShards> open;
    private final RandomGenerator random;

    public ShardPlacement(OpenShards open, RandomGenerator random) {
        this(constant(open), random);
    }

    /** New users on the shards {@code open} names at each placement (an operator opens new ones live). */
    public ShardPlacement(Supplier<OpenShards> open, RandomGenerator random) {
        if (open == null || random == null) throw new IllegalArgumentException("open shards and random are required");
        this.open = open;
        this.random = random;
    }

    private static Supplier<OpenShards> constant(OpenShards open) {
        if (open == null) throw new IllegalArgumentException("open shards and random are required");
        return () -> open;
    }

    public OpenShards openShards() {
        return open.get();
    }

    public int shardForNewUser() {
        OpenShards now = open.get();
        return now.shardAt(random.nextInt(now.count()));
    }

    public int shardForNewBoard(long ownerUserId) {
        return shardOfParent(ownerUserId, ObjectType.USER, "board owner");
    }

    public int shardForNewPin(long boardId) {
        return shardOfParent(boardId, ObjectType.BOARD, "pin's board");
    }

    public int shardForNewComment(long pinId) {
        return shardOfParent(pinId, ObjectType.PIN, "comment's pin");
    }

    private static int shardOfParent(long parentId, ObjectType expected, String role) {
        ShardedId parent = ShardedId.decode(parentId);
        if (parent.type() != expected) {
            throw new InvalidIdException(role + " " + parentId + " is a " + parent.typeName() + ", not a " + expected.typeName());
        }
        return parent.shard();
    }
}
