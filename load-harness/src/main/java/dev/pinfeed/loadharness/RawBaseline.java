package dev.pinfeed.loadharness;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The ceiling for ingest-api on this box: a bare {@code KafkaProducer<String, byte[]>} with the
 * durable producer settings ingest publishes with ({@code KafkaClients.producer}), sending the bytes of real Avro events (serialized once
 * with {@link AvroEventSerializer}) in the same like/create mix and with the same keys, as
 * fast as it can with at most {@value #MAX_OUTSTANDING} unacknowledged sends.
 */
final class RawBaseline {

    static final int MAX_OUTSTANDING = 10_000;

    /** Acknowledged records over the measured window. */
    record Outcome(long acked, long measuredNanos, long errors, String firstError, int likeBytes, int createBytes,
                   CpuMeter.Snapshot cpuFrom, CpuMeter.Snapshot cpuTo) {}

    /** How long the run's topics, created a moment before, may take to reach the producer's metadata. */
    static final Duration METADATA_WAIT = Duration.ofSeconds(30);

    private RawBaseline() {}

    /**
     * Waits until the producer knows each topic's partitions. A topic created a moment before reaches a busy broker's
     * metadata in seconds, and each lookup gives up after the producer's max.block.ms (ingest's 1 s): a run must not fail
     * on that before it has sent anything. A topic still unknown after {@code wait} fails it.
     */
    static void awaitMetadata(Producer<?, ?> producer, Duration wait, LongSupplier nanoClock, String... topics) {
        long deadline = nanoClock.getAsLong() + wait.toNanos();
        for (String topic : topics) {
            while (true) {
                try {
                    producer.partitionsFor(topic);
                    break;
                } catch (TimeoutException e) {
                    if (nanoClock.getAsLong() - deadline >= 0) throw e;
                }
            }
        }
    }

    /**
     * The payloads are serialized for the run's fresh {@code likesTopic} / {@code pinsTopic} (subjects
     * ingest-api registers anyway) and sent to {@code rawLikes} / {@code rawPins}.
     */
    static Outcome run(PinfeedConfig config, Workload w, String likesTopic, String pinsTopic, String rawLikes, String rawPins,
                       long warmupNanos, long measureNanos) throws InterruptedException {
        AvroEventSerializer avro = new AvroEventSerializer(new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(config)));
        SplittableRandom r = new SplittableRandom(7);
        long eventId = System.currentTimeMillis() << 22;
        long user = w.randomUser(r);
        long pin = w.randomPin(r);
        Workload.Board board = w.randomBoard(r);
        byte[] liked = avro.serialize(likesTopic, PinLiked.newBuilder().setEventId(eventId).setOccurredAt(Instant.now())
                .setActorId(user).setUserId(user).setPinId(pin).build());
        byte[] unliked = avro.serialize(likesTopic, PinUnliked.newBuilder().setEventId(eventId + 1).setOccurredAt(Instant.now())
                .setActorId(user).setUserId(user).setPinId(pin).build());
        byte[] created = avro.serialize(pinsTopic, PinCreated.newBuilder().setEventId(eventId + 2).setOccurredAt(Instant.now())
                .setActorId(board.ownerId()).setPinId(pin + 1).setBoardId(board.id()).setAuthorId(board.ownerId())
                .setDetails(Workload.DETAILS).setLink(Workload.LINK).setImageUrl(Workload.IMAGE_URL).build());

        // Keys as ingest-api's: likes by an existing pin's id, creates by a new pin id (pin ids near the existing ones).
        String[] likeKeys = new String[4096];
        String[] createKeys = new String[4096];
        for (int i = 0; i < likeKeys.length; i++) {
            likeKeys[i] = Long.toString(w.randomPin(r));
            createKeys[i] = Long.toString(w.randomPin(r) + 1 + r.nextInt(1 << 20));
        }

        Semaphore outstanding = new Semaphore(MAX_OUTSTANDING);
        AtomicLong acked = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        long start = System.nanoTime() + 20_000_000L;
        long measureFrom = start + warmupNanos;
        long measureTo = measureFrom + measureNanos;
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(rawSettings(config),
                new StringSerializer(), new ByteArraySerializer())) {
            awaitMetadata(producer, METADATA_WAIT, System::nanoTime, rawLikes, rawPins);
            Thread sender = new Thread(() -> {
                SplittableRandom mix = new SplittableRandom(11);
                LoadLoops.sleepUntil(start);
                while (System.nanoTime() < measureTo) {
                    try {
                        outstanding.acquire();
                    } catch (InterruptedException e) {
                        return;
                    }
                    int key = mix.nextInt(4096);
                    ProducerRecord<String, byte[]> record = mix.nextInt(100) < w.createPercent()
                            ? new ProducerRecord<>(rawPins, createKeys[key], created)
                            : new ProducerRecord<>(rawLikes, likeKeys[key], mix.nextBoolean() ? liked : unliked);
                    try {
                        producer.send(record, (md, e) -> {
                            outstanding.release();
                            if (e == null) {
                                acked.incrementAndGet();
                            } else {
                                errors.incrementAndGet();
                                firstError.compareAndSet(null, e.toString());
                            }
                        });
                    } catch (RuntimeException e) {
                        outstanding.release();
                        errors.incrementAndGet();
                        firstError.compareAndSet(null, e.toString());
                    }
                }
            }, "load-raw-sender");
            sender.setDaemon(true);
            sender.start();
            LoadLoops.sleepUntil(measureFrom);
            long ackedFrom = acked.get();
            CpuMeter.Snapshot cpuFrom = CpuMeter.now();
            LoadLoops.sleepUntil(measureTo);
            long ackedTo = acked.get();
            CpuMeter.Snapshot cpuTo = CpuMeter.now();
            sender.join();
            producer.flush();
            return new Outcome(ackedTo - ackedFrom, cpuTo.wallNanos() - cpuFrom.wallNanos(), errors.get(), firstError.get(),
                    liked.length, created.length, cpuFrom, cpuTo);
        }
    }

    /** Ingest's own producer settings (durability, batching, compression) under the baseline's client id. */
    private static java.util.Properties rawSettings(dev.pinfeed.config.PinfeedConfig config) {
        java.util.Properties clientId = new java.util.Properties();
        clientId.put(org.apache.kafka.clients.producer.ProducerConfig.CLIENT_ID_CONFIG, "pinfeed-load-raw");
        return dev.pinfeed.ingestapi.IngestComponents.producerSettings(config, clientId);
    }
}
