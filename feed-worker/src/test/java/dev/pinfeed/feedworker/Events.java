package dev.pinfeed.feedworker;

import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.events.BoardFollowed;
import dev.pinfeed.events.BoardUnfollowed;
import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.events.UserUnfollowed;
import dev.pinfeed.feedstore.Source;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** The worker's input events, built for tests; event ids grow, times are given. */
public final class Events {

    private static final AtomicLong EVENT_IDS = new AtomicLong(1);

    private Events() {}

    public static FanoutReceiver receiver(long user, Source source) {
        return new FanoutReceiver(user, source == Source.FOLLOWED_BOARD ? FanoutSource.FOLLOWED_BOARD : FanoutSource.FOLLOWED_USER);
    }

    public static FanoutChunk add(PinFacts pin, long occurredAt, List<FanoutReceiver> receivers) {
        return chunk(FanoutAction.ADD, pin, occurredAt, receivers);
    }

    public static FanoutChunk remove(PinFacts pin, long occurredAt, List<FanoutReceiver> receivers) {
        return chunk(FanoutAction.REMOVE, pin, occurredAt, receivers);
    }

    private static FanoutChunk chunk(FanoutAction action, PinFacts pin, long occurredAt, List<FanoutReceiver> receivers) {
        return new FanoutChunk(EVENT_IDS.incrementAndGet(), Instant.ofEpochMilli(occurredAt), action, pin.pinId(), pin.boardId(), pin.authorId(),
                Instant.ofEpochMilli(pin.createdAtMillis()), 0, true, receivers, null);
    }

    public static PinLiked liked(long user, long pin, long at) {
        return new PinLiked(EVENT_IDS.incrementAndGet(), Instant.ofEpochMilli(at), user, user, pin);
    }

    public static PinUnliked unliked(long user, long pin, long at) {
        return new PinUnliked(EVENT_IDS.incrementAndGet(), Instant.ofEpochMilli(at), user, user, pin);
    }

    public static UserFollowed followedUser(long follower, long followee, long at) {
        return new UserFollowed(EVENT_IDS.incrementAndGet(), Instant.ofEpochMilli(at), follower, follower, followee);
    }

    public static UserUnfollowed unfollowedUser(long follower, long followee, long at) {
        return new UserUnfollowed(EVENT_IDS.incrementAndGet(), Instant.ofEpochMilli(at), follower, follower, followee);
    }

    public static BoardFollowed followedBoard(long follower, long board, long owner, long at) {
        return new BoardFollowed(EVENT_IDS.incrementAndGet(), Instant.ofEpochMilli(at), follower, follower, board, owner);
    }

    public static BoardUnfollowed unfollowedBoard(long follower, long board, long owner, long at) {
        return new BoardUnfollowed(EVENT_IDS.incrementAndGet(), Instant.ofEpochMilli(at), follower, follower, board, owner);
    }
}
