package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.config.StoreUnavailableException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;

/**
 * What a stream thread's death means. An outage — a store (HBase, Redis) or Kafka itself (a retriable
 * Kafka error, or source topics missing from the metadata of a broker still recovering its logs after
 * a restart) — replaces the thread, so the app resumes by itself once the outage ends (measured
 * before this: after a kill -9 of the broker the fan-out client shut down and stayed not live). Anything
 * else is a bug: the client stops and liveness reports it.
 */
final class StreamThreadFailures {

    private StreamThreadFailures() {}

    static StreamThreadExceptionResponse responseTo(Throwable failure) {
        return outage(failure) != null ? StreamThreadExceptionResponse.REPLACE_THREAD : StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }

    /** The outage in {@code failure}'s cause chain, or null when it is not one. */
    static Throwable outage(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StoreUnavailableException || t instanceof RetriableException || t instanceof MissingSourceTopicException) return t;
        }
        return null;
    }
}
