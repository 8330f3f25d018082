package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.fanoutstreams.FanoutStatus;
import dev.pinfeed.fanoutstreams.PoisonEventException;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams' exception handlers, writing pinfeed's dead letters: the refused record unchanged plus
 * the {@link DeadLetters} headers, sent through the handler's {@code Response.resume(records)} (KIP-1034),
 * so the dead letter is part of the same transaction as the input offset that skips the record.
 * A store outage (the registry, while decoding) is not poison: the handler fails, the stream thread
 * is replaced and the record is read again.
 *
 * <p>Streams instantiates the handlers by class name; they find the topic, the metrics and the status
 * in the app's configuration under {@link #TOPIC}, {@link #METRICS} and {@link #STATUS}.
 */
public final class DeadLetterHandlers {

    static final String TOPIC = "pinfeed.fanout.dead-letter-topic";
    static final String METRICS = "pinfeed.fanout.metrics";
    static final String STATUS = "pinfeed.fanout.status";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterHandlers.class);

    private DeadLetterHandlers() {}

    /** What counts the dead letters of one application. */
    interface Counter {
        void deadLettered(String reason);
    }

    /** Where the handlers find what they need: the settings' topic and application id, the shared metrics and status. */
    static Map<String, Object> configs(FanoutSettings settings, FanoutMetrics metrics, FanoutStatus status) {
        return configs(settings.deadLetterTopic(), metrics, status);
    }

    /** The same for any application of this process (the related pins' too): its dead-letter topic, its counter and status. */
    static Map<String, Object> configs(String deadLetterTopic, Counter metrics, FanoutStatus status) {
        return Map.of(TOPIC, deadLetterTopic, METRICS, metrics, STATUS, status,
                StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, Deserialization.class.getName(),
                StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, Processing.class.getName());
    }

    /** The state both handlers configure from the app's configuration. */
    private abstract static class Base {
        String topic;
        String consumer;
        Counter metrics;
        FanoutStatus status;

        public void configure(Map<String, ?> configs) {
            topic = String.valueOf(configs.get(TOPIC));
            consumer = String.valueOf(configs.get(StreamsConfig.APPLICATION_ID_CONFIG));
            metrics = (Counter) configs.get(METRICS);
            status = (FanoutStatus) configs.get(STATUS);
        }

        ProducerRecord<byte[], byte[]> deadLetter(byte[] key, byte[] value, Iterable<Header> headers, String reason, String error,
                                                  String sourceTopic, int partition, long offset) {
            LOG.warn("dead-lettered {}-{}@{} ({}): {}", sourceTopic, partition, offset, reason, error);
            if (metrics != null) metrics.deadLettered(reason);
            return new ProducerRecord<>(topic, null, key, value,
                    DeadLetterWriter.headers(headers, reason, error, sourceTopic, partition, offset, consumer));
        }

        /** True for an outage (not poison): reported, and the handler fails so the record is retried. */
        boolean outage(Exception e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof StoreUnavailableException s) {
                    LOG.warn("{} while handling a record; the stream thread retries it", s.getMessage());
                    if (status != null) status.outage(s.store(), s.getMessage());
                    return true;
                }
            }
            return false;
        }
    }

    /** Not Confluent wire format, an unknown schema id, an unreadable payload: {@link DeadLetters#UNDECODABLE}. */
    public static final class Deserialization extends Base implements DeserializationExceptionHandler {
        @Override
        public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
            if (outage(exception)) return Response.fail();
            return Response.resume(List.of(deadLetter(record.key(), record.value(), record.headers(), DeadLetters.UNDECODABLE,
                    String.valueOf(exception.getMessage()), record.topic(), record.partition(), record.offset())));
        }
    }

    /**
     * A record the processor refused ({@link PoisonEventException}: its reason) or failed on
     * ({@link DeadLetters#PROCESSING_ERROR}). Exceptions from a punctuation have no record to set aside:
     * they fail the thread (the fan-out's own punctuation catches its errors; what escapes is an outage).
     */
    public static final class Processing extends Base implements ProcessingExceptionHandler {
        @Override
        public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
            if (outage(exception) || record == null) return Response.fail();
            String reason = exception instanceof PoisonEventException p ? p.reason() : DeadLetters.PROCESSING_ERROR;
            return Response.resume(List.of(deadLetter(context.sourceRawKey(), context.sourceRawValue(), context.headers(), reason,
                    String.valueOf(exception.getMessage()), context.topic(), context.partition(), context.offset())));
        }
    }
}
