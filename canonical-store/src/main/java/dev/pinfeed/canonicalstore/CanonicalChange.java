package dev.pinfeed.canonicalstore;

import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One idempotent, order-free write to the canonical tables (no JDBC here: {@link MysqlCanonicalWriter}
 * turns it into SQL, the materializer's reference model into map updates). Applying a set of changes
 * in any order, any number of times, leaves the same rows: that is what lets the consumer retry,
 * park and replay freely.
 */
public sealed interface CanonicalChange {

    /** The object ids whose shards hold the rows this change writes (a like: the user's and the pin's). */
    List<Long> placedBy();

    /** Rows this change creates if absent (a later change may depend on them). */
    List<CanonicalRef> provides();

    /** Cache keys made stale once this change commits. */
    List<CacheInvalidation> invalidations();

    /** The logical shards written. */
    default Set<Integer> shards() {
        Set<Integer> out = new LinkedHashSet<>();
        for (long id : placedBy()) out.add(CanonicalIds.shardOf(id));
        return out;
    }

    /**
     * An object row (users, boards, pins, comments) if absent. An existing row is kept, unless it is a
     * placeholder (a tombstone written by a delete that arrived first: no createdAt): then it takes
     * this JSON and stays inactive, so create-then-delete and delete-then-create end alike. The row's
     * {@code ts} is the time of the newest event applied to it ({@code occurredAtMillis}: the create's), so a
     * replay leaves every row exactly as it was.
     */
    record PutObject(String table, long id, String json, long occurredAtMillis) implements CanonicalChange {
        @Override
        public List<Long> placedBy() {
            return List.of(id);
        }

        @Override
        public List<CanonicalRef> provides() {
            return List.of(CanonicalRef.object(table, id));
        }

        @Override
        public List<CacheInvalidation> invalidations() {
            // Cached users and boards never change once created (and an absent object is never cached), so only a pin's or
            // a comment's keys need dropping: they may hold the tombstone a delete that arrived first wrote, which this create replaces.
            if (table.equals(CanonicalLayout.PINS)) return List.of(pinKeys(id));
            if (table.equals(CanonicalLayout.COMMENTS)) return List.of(CacheInvalidation.of(id, CanonicalCacheKeys.comment(id)));
            return List.of();
        }
    }

    /**
     * Seed 002's soft delete: the pin's JSON gets {@code "active": false}; absent, a tombstone is written (a later
     * create never revives it). The row's {@code ts} becomes the delete's time if that is newer.
     */
    record DeletePin(long pinId, long boardId, long authorId, long occurredAtMillis) implements CanonicalChange {
        public String tombstone() {
            return CanonicalLayout.Json.pinTombstone(pinId, boardId, authorId);
        }

        @Override
        public List<Long> placedBy() {
            return List.of(pinId);
        }

        @Override
        public List<CanonicalRef> provides() {
            return List.of(CanonicalRef.object(CanonicalLayout.PINS, pinId));
        }

        @Override
        public List<CacheInvalidation> invalidations() {
            return List.of(pinKeys(pinId));
        }
    }

    /**
     * A comment's soft delete, as {@link DeletePin}: {@code "active": false} in its JSON, or a tombstone when absent (a
     * later create never revives it); {@code ts} becomes the delete's time if that is newer.
     */
    record DeleteComment(long commentId, long pinId, long authorId, long occurredAtMillis) implements CanonicalChange {
        public String tombstone() {
            return CanonicalLayout.Json.commentTombstone(commentId, pinId, authorId);
        }

        @Override
        public List<Long> placedBy() {
            return List.of(commentId);
        }

        @Override
        public List<CanonicalRef> provides() {
            return List.of(CanonicalRef.object(CanonicalLayout.COMMENTS, commentId));
        }

        @Override
        public List<CacheInvalidation> invalidations() {
            return List.of(CacheInvalidation.of(commentId, CanonicalCacheKeys.comment(commentId)));
        }
    }

    /**
     * A mapping row {@code (from, to, sequence)}, active, if absent. On an existing row the sequence
     * becomes this one (the create's time is authoritative; a deactivation that came first only had the
     * delete's time), and the active flag and custom position stay.
     */
    record PutMapping(Mapping mapping, long from, long to, long sequence) implements CanonicalChange {
        public PutMapping {
            if (mapping.isLike()) throw new IllegalArgumentException(mapping.table() + " is written by PutLike");
        }

        @Override
        public List<Long> placedBy() {
            return List.of(from);
        }

        @Override
        public List<CanonicalRef> provides() {
            return List.of(CanonicalRef.mapping(mapping, from, to));
        }

        @Override
        public List<CacheInvalidation> invalidations() {
            return mappingKeys(mapping, from);
        }
    }

    /** A mapping row made inactive ({@code active = 0}); absent, it is inserted inactive with {@code sequence} as a stand-in. */
    record DeactivateMapping(Mapping mapping, long from, long to, long sequence) implements CanonicalChange {
        public DeactivateMapping {
            if (!mapping.hasActive()) throw new IllegalArgumentException(mapping.table() + " has no active flag");
        }

        @Override
        public List<Long> placedBy() {
            return List.of(from);
        }

        @Override
        public List<CanonicalRef> provides() {
            return List.of(CanonicalRef.mapping(mapping, from, to));
        }

        @Override
        public List<CacheInvalidation> invalidations() {
            return mappingKeys(mapping, from);
        }
    }

    /**
     * A like or unlike, both directions (user_likes_pins on the user's shard, pin_liked_by_users on
     * the pin's): last writer wins per (user, pin) by version (occurredAt, eventId); sequence = the
     * winner's occurredAt.
     */
    record PutLike(long userId, long pinId, boolean liked, long occurredAtMillis, long eventId) implements CanonicalChange {
        public byte[] version() {
            return CanonicalLayout.version(occurredAtMillis, eventId);
        }

        @Override
        public List<Long> placedBy() {
            return List.of(userId, pinId);
        }

        @Override
        public List<CanonicalRef> provides() {
            return List.of(CanonicalRef.mapping(Mapping.USER_LIKES_PINS, userId, pinId),
                    CanonicalRef.mapping(Mapping.PIN_LIKED_BY_USERS, pinId, userId));
        }

        @Override
        public List<CacheInvalidation> invalidations() {
            return List.of(CacheInvalidation.of(pinId, CanonicalCacheKeys.pinLikes(pinId)));
        }
    }

    /**
     * The owner's custom order of a board, last writer wins per board by version (occurredAt, eventId)
     * in {@code boards.order_version}: when newer, {@code board_has_pins.position} becomes each listed
     * pin's index (first = 0; a pin listed twice keeps its first place) and NULL for the board's other pins.
     */
    record ReorderBoard(long boardId, List<Long> pinIds, long occurredAtMillis, long eventId) implements CanonicalChange {
        public ReorderBoard {
            pinIds = List.copyOf(new LinkedHashSet<>(pinIds));
        }

        public byte[] version() {
            return CanonicalLayout.version(occurredAtMillis, eventId);
        }

        @Override
        public List<Long> placedBy() {
            return List.of(boardId);
        }

        @Override
        public List<CanonicalRef> provides() {
            return List.of();
        }

        @Override
        public List<CacheInvalidation> invalidations() {
            return List.of(CacheInvalidation.of(boardId, CanonicalCacheKeys.boardPins(boardId, "custom")));
        }
    }

    private static CacheInvalidation pinKeys(long pinId) {
        return CacheInvalidation.of(pinId, CanonicalCacheKeys.pin(pinId), CanonicalCacheKeys.pinLikes(pinId), CanonicalCacheKeys.pinComments(pinId),
                CanonicalCacheKeys.pinRepins(pinId));
    }

    /** What a mapping row's change makes stale: a board's cached lists, a pin's comment or repin count (counted from its active rows). */
    private static List<CacheInvalidation> mappingKeys(Mapping mapping, long from) {
        return switch (mapping) {
            case BOARD_HAS_PINS -> List.of(CacheInvalidation.of(from, CanonicalCacheKeys.boardPins(from, "newest"),
                    CanonicalCacheKeys.boardPins(from, "custom")));
            case PIN_HAS_COMMENTS -> List.of(CacheInvalidation.of(from, CanonicalCacheKeys.pinComments(from)));
            case PIN_HAS_REPINS -> List.of(CacheInvalidation.of(from, CanonicalCacheKeys.pinRepins(from)));
            default -> List.of();
        };
    }
}
