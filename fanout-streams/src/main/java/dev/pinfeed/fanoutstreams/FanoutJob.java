package dev.pinfeed.fanoutstreams;

import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.followergraph.Receiver;
import java.util.List;

/**
 * One pin's fan-out in progress: what the chunks say about the pin, how far the walk over the
 * board's receivers got ({@code cursor}, {@code exhausted}), receivers already read but not yet sent
 * ({@code buffered}, so a chunk never straddles a crash), the next chunk's index, and where the pin
 * event came from (to dead-letter it unchanged if the job keeps failing). Kept in the processor's
 * persistent store under the pin id; {@link FanoutJobCodec} owns its bytes.
 *
 * @param cursor    the graph cursor of the next page; null with {@code exhausted} false = not started
 * @param failures  consecutive steps that failed with an unexpected error (not an outage)
 * @param parentPinId a repin's parent (its chunks say so, and the worker puts it in the repins pool); 0 for an original pin
 * @param interestIds the interests the pin carries: after the board's receivers the walk goes on through each one's followers
 */
public record FanoutJob(FanoutAction action, long eventId, long occurredAt, long pinId, long boardId, long authorId,
                        long pinCreatedAt, int nextChunkIndex, String cursor, boolean exhausted, List<Receiver> buffered,
                        int failures, Origin origin, long parentPinId, List<Long> interestIds) {

    /** A job of a pin without interests. */
    public FanoutJob(FanoutAction action, long eventId, long occurredAt, long pinId, long boardId, long authorId,
                     long pinCreatedAt, int nextChunkIndex, String cursor, boolean exhausted, List<Receiver> buffered,
                     int failures, Origin origin, long parentPinId) {
        this(action, eventId, occurredAt, pinId, boardId, authorId, pinCreatedAt, nextChunkIndex, cursor, exhausted, buffered, failures,
                origin, parentPinId, List.of());
    }

    /** A job of an original pin (no parent). */
    public FanoutJob(FanoutAction action, long eventId, long occurredAt, long pinId, long boardId, long authorId,
                     long pinCreatedAt, int nextChunkIndex, String cursor, boolean exhausted, List<Receiver> buffered,
                     int failures, Origin origin) {
        this(action, eventId, occurredAt, pinId, boardId, authorId, pinCreatedAt, nextChunkIndex, cursor, exhausted, buffered, failures,
                origin, 0);
    }

    /**
     * Where the pin event was read, its raw bytes and its headers: a dead letter carries the record as it was
     * read, headers included (a redriven event's redrive header must reach its second dead letter).
     */
    public record Origin(String topic, int partition, long offset, byte[] key, byte[] value, List<Header> headers) {
        public static final Origin UNKNOWN = new Origin("", -1, -1, null, null, List.of());

        public Origin {
            headers = List.copyOf(headers);
        }
    }

    /** One header of the pin event, in its order. */
    public record Header(String name, byte[] value) {}

    public FanoutJob {
        buffered = List.copyOf(buffered);
        interestIds = List.copyOf(new java.util.LinkedHashSet<>(interestIds));
    }

    /** A fan-out not started yet. */
    public static FanoutJob start(FanoutAction action, long eventId, long occurredAt, long pinId, long boardId, long authorId,
                                  long pinCreatedAt, Origin origin) {
        return new FanoutJob(action, eventId, occurredAt, pinId, boardId, authorId, pinCreatedAt, 0, null, false, List.of(), 0, origin);
    }

    /** The same job marked as a repin's fan-out: its chunks carry {@code parentPinId}. */
    public FanoutJob ofRepin(long parentPinId) {
        return new FanoutJob(action, eventId, occurredAt, pinId, boardId, authorId, pinCreatedAt, nextChunkIndex, cursor, exhausted,
                buffered, failures, origin, parentPinId, interestIds);
    }

    /** The same job for a pin carrying {@code interestIds} (each once, in order): its walk goes on through their followers. */
    public FanoutJob withInterests(List<Long> interestIds) {
        return new FanoutJob(action, eventId, occurredAt, pinId, boardId, authorId, pinCreatedAt, nextChunkIndex, cursor, exhausted,
                buffered, failures, origin, parentPinId, interestIds);
    }

    /** After a step: the walk's new position and what is left to send. */
    FanoutJob advanced(int nextChunkIndex, String cursor, boolean exhausted, List<Receiver> buffered) {
        return new FanoutJob(action, eventId, occurredAt, pinId, boardId, authorId, pinCreatedAt, nextChunkIndex, cursor, exhausted,
                buffered, 0, origin, parentPinId, interestIds);
    }

    /** The same job after one more step failed with an unexpected error. */
    public FanoutJob failedOnce() {
        return new FanoutJob(action, eventId, occurredAt, pinId, boardId, authorId, pinCreatedAt, nextChunkIndex, cursor, exhausted,
                buffered, failures + 1, origin, parentPinId, interestIds);
    }
}
