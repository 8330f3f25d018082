package dev.pinfeed.feedservice.homefeed;

import dev.pinfeed.feedstore.FeedPosition;
import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * The home feed's page cursor, and the only class that knows its bytes: the {@link FeedPosition} of
 * the last item served (version 1, chunk id, index), base64url. A position, not an offset: new chunks
 * go ahead of every position, so the next page is the same however many pins arrived meanwhile.
 */
public final class FeedCursor {

    private static final byte VERSION = 1;
    private static final int LENGTH = 13;

    private FeedCursor() {}

    /** A cursor the service did not issue. */
    public static final class BadCursorException extends IllegalArgumentException {
        BadCursorException(String message) {
            super(message);
        }
    }

    public static String of(FeedPosition position) {
        byte[] bytes = ByteBuffer.allocate(LENGTH).put(VERSION).putLong(position.chunkId()).putInt(position.index()).array();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public static FeedPosition parse(String cursor) {
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException e) {
            throw new BadCursorException("cursor is not one this feed issued (not base64url)");
        }
        if (bytes.length != LENGTH || bytes[0] != VERSION) throw new BadCursorException("cursor is not one this feed issued");
        ByteBuffer b = ByteBuffer.wrap(bytes, 1, LENGTH - 1);
        long chunk = b.getLong();
        int index = b.getInt();
        if (index < 0) throw new BadCursorException("cursor is not one this feed issued (negative index)");
        return new FeedPosition(chunk, index);
    }
}
