package dev.pinfeed.feedstore;

/** One pin of a user's home feed, as it was shown: why it came and the score it had for him. */
public record FeedItem(long pinId, Source source, double score, long authorId, long boardId) {

    public static FeedItem of(PoolEntry e) {
        return new FeedItem(e.pinId(), e.source(), e.score(), e.authorId(), e.boardId());
    }
}
