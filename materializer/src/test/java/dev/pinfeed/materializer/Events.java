package dev.pinfeed.materializer;

import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.CommentCreated;
import dev.pinfeed.events.CommentDeleted;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Test events with increasing event ids; {@code at} is the occurredAt in ms. */
public final class Events {

    private static final AtomicLong EVENT_ID = new AtomicLong(1_000);

    private Events() {}

    public static long id(ObjectType type, int shard, long local) {
        return ShardedId.compose(shard, type, local);
    }

    public static long nextEventId() {
        return EVENT_ID.incrementAndGet();
    }

    public static UserCreated user(long user, long at) {
        return new UserCreated(nextEventId(), Instant.ofEpochMilli(at), user, user, "u" + ShardedId.decode(user).localId(), at % 2 == 0 ? "User" : null);
    }

    public static BoardCreated board(long board, long owner, long at) {
        return new BoardCreated(nextEventId(), Instant.ofEpochMilli(at), owner, board, owner, "board " + board, at % 2 == 0 ? "about" : null);
    }

    public static PinCreated pin(long pin, long board, long author, long at) {
        return new PinCreated(nextEventId(), Instant.ofEpochMilli(at), author, pin, board, author, "details of " + pin,
                "https://example.com/" + pin, at % 2 == 0 ? "https://img.example.com/" + pin : null, null, java.util.List.of());
    }

    /** A repin of {@code parent}: a pin on {@code board} by {@code author}, with the parent's content copied by ingest. */
    public static PinCreated repin(long pin, long parent, long board, long author, long at) {
        return new PinCreated(nextEventId(), Instant.ofEpochMilli(at), author, pin, board, author, "details of " + parent,
                "https://example.com/" + parent, null, parent, java.util.List.of());
    }

    public static PinDeleted deleted(long pin, long board, long author, long at) {
        return new PinDeleted(nextEventId(), Instant.ofEpochMilli(at), author, pin, board, author, java.util.List.of());
    }

    public static PinLiked liked(long user, long pin, long at) {
        return new PinLiked(nextEventId(), Instant.ofEpochMilli(at), user, user, pin);
    }

    public static PinUnliked unliked(long user, long pin, long at) {
        return new PinUnliked(nextEventId(), Instant.ofEpochMilli(at), user, user, pin);
    }

    public static CommentCreated commented(long comment, long pin, long author, long at) {
        return new CommentCreated(nextEventId(), Instant.ofEpochMilli(at), author, comment, pin, author, "comment " + comment);
    }

    public static CommentDeleted uncommented(long comment, long pin, long author, long at) {
        return new CommentDeleted(nextEventId(), Instant.ofEpochMilli(at), author, comment, pin, author);
    }

    public static BoardPinsReordered reordered(long board, long owner, long at, List<Long> pins) {
        return new BoardPinsReordered(nextEventId(), Instant.ofEpochMilli(at), owner, board, pins);
    }
}
