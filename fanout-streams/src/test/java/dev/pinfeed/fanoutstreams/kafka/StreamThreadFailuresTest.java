package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.StoreUnavailableException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {

    @Test
    void outagesReplaceTheThread() {
        assertThat(StreamThreadFailures.responseTo(new StreamsException(new StoreUnavailableException("hbase-primary", "down"))))
                .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(StreamThreadFailures.responseTo(new StreamsException("task timed out", new TimeoutException("no broker"))))
                .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(StreamThreadFailures.responseTo(new NotLeaderOrFollowerException("moved")))
                .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(StreamThreadFailures.responseTo(new MissingSourceTopicException("pinfeed.pins.v1 is missing")))
                .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }

    @Test
    void aBugStopsTheClient() {
        assertThat(StreamThreadFailures.responseTo(new StreamsException(new NullPointerException("a bug"))))
                .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(StreamThreadFailures.outage(new IllegalStateException("a bug"))).isNull();
    }
}
