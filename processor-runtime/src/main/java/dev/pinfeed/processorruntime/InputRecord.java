package dev.pinfeed.processorruntime;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** A record as a handler sees it: the decoded event plus where it came from. */
public record InputRecord(ConsumerRecord<byte[], byte[]> raw, SpecificRecord event) {

    public String topic() {
        return raw.topic();
    }

    public int partition() {
        return raw.partition();
    }

    public long offset() {
        return raw.offset();
    }

    /** The event's record name ({@code PinCreated}): the {@code type} tag of the applied-events counter. */
    public String eventType() {
        return event.getSchema().getName();
    }

    @Override
    public String toString() {
        return raw.topic() + "-" + raw.partition() + "@" + raw.offset() + " " + eventType();
    }
}
