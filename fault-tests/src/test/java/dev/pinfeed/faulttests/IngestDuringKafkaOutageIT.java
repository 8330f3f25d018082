package dev.pinfeed.faulttests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.PinCreated;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.IngestComponents;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A fault of the suite: the Kafka broker killed with kill -9 for ~10 s under ingest load. Four producers
 * post pins with Idempotency-Keys and retry the same key on a refusal until a 202 (four more start
 * two seconds into the outage, while the first four wait on requests sent before it); a
 * {@code publish-unconfirmed} 503 is that key's final answer (the contract replays it for every retry),
 * so the producer moves on to a new key. Checked: every 202's event is in the log exactly once (read
 * back by event id); an unconfirmed one at most once; no refused attempt's event is in the log; while
 * the broker is down the answers are 503 or 429, each within the publish timeout (the slowest non-202
 * is measured and reported); after the restart ingest answers 202 again by itself (nothing in the app
 * is restarted).
 */
@ExtendWith(StackExtension.class)
class IngestDuringKafkaOutageIT {

    private static final Duration DOWN = Duration.ofSeconds(10);
    private static final int WRITERS = 4;
    /** The producer's delivery timeout is 25 s (KafkaClients): a median refusal under this did not wait it out. */
    private static final long REFUSED_WELL_BEFORE_DELIVERY_TIMEOUT_MS = 10_000;

    @Test
    void everyAcknowledgedPinIsInTheLogExactlyOnceAndIngestRecoversByItself(TestStack stack) throws Exception {
        long publishTimeoutMs = stack.config().getInt(IngestComponents.PUBLISH_TIMEOUT_MS, 30_000);
        try (IngestFixture ingest = new IngestFixture(stack)) {
            long author = ingest.user();
            long board = ingest.board(author);
            Outage outage;
            List<Samples.Sample> all;
            long firstAckAfterUp;
            AssertionError notRecovered = null;
            try (LoadLoop load = new LoadLoop("kafka-fault-writer", WRITERS, 20, (t, i) -> ingest.attemptPin(t, board, author))) {
                awaitAcks(ingest, 20, Duration.ofSeconds(60)); // a healthy baseline first
                List<Samples.Sample> probes;
                try (Outage o = Outage.kill9(stack.servers(), "kafka")) {
                    outage = o;
                    // The writers are now held by requests that entered the producer before the kill (they
                    // land if the broker returns within the delivery timeout). Callers arriving later are
                    // what "learns fast" is about: probers start once the kill is a couple of seconds old.
                    Outage.sleep(2_000);
                    try (LoadLoop probers = new LoadLoop("kafka-fault-prober", WRITERS, 20,
                            (t, i) -> ingest.attemptPin(WRITERS + t, board, author))) {
                        Outage.sleep(DOWN.toMillis() - 2_000);
                        o.restart();
                        probers.close();
                        probes = probers.samples().all();
                    }
                }
                int before = ingest.acknowledged().size();
                try {
                    awaitAcks(ingest, before + 20, Duration.ofSeconds(120)); // recovers by itself: no app restart
                } catch (AssertionError e) {
                    notRecovered = e; // the figures first, then the failure
                }
                firstAckAfterUp = load.samples().all().stream().filter(s -> s.status() == 202 && s.startNanos() >= outage.upAt())
                        .mapToLong(s -> s.startNanos() + s.latencyNanos()).min().orElse(-1);
                load.close();
                all = new java.util.ArrayList<>(load.samples().all());
                all.addAll(probes);
            }
            awaitUp(stack, "schema-registry"); // not killed, but it lives on Kafka: leave it answering

            List<Samples.Sample> duringFault = all.stream().filter(s -> s.startNanos() >= outage.killedAt() && s.startNanos() < outage.upAt()).toList();
            List<Samples.Sample> afterUp = all.stream().filter(s -> s.startNanos() >= outage.upAt()).toList();
            List<Samples.Sample> refused = duringFault.stream().filter(s -> s.status() != 202).toList();
            List<IngestFixture.Ack> acks = ingest.acknowledged();

            // Every event on the fresh pins topic, by event id.
            List<ConsumerRecord<String, SpecificRecord>> records = ingest.topics.records(acks.size() + 2, Duration.ofSeconds(90));
            Map<Long, Long> copies = records.stream().filter(r -> r.topic().equals(ingest.topics.topic(EventTopics.PINS)))
                    .map(r -> (PinCreated) r.value()).collect(Collectors.groupingBy(PinCreated::getEventId, Collectors.counting()));
            long found = acks.stream().filter(a -> copies.getOrDefault(a.eventId(), 0L) == 1).count();
            List<IngestFixture.Ack> unconfirmed = ingest.unconfirmed();
            long unconfirmedLanded = unconfirmed.stream().filter(u -> copies.containsKey(u.eventId())).count();
            Set<Long> answered = new java.util.HashSet<>(acks.stream().map(IngestFixture.Ack::eventId).toList());
            unconfirmed.forEach(u -> answered.add(u.eventId()));
            List<Long> refusedButInLog = copies.keySet().stream().filter(e -> !answered.contains(e)).toList();

            FaultReport report = FaultReport.of("Kafka broker kill -9, restart after " + DOWN.toSeconds() + " s", outage, duringFault, 202, acks.size(),
                    found, String.format(java.util.Locale.ROOT, "ingest POST /v1/pins ×%d writers; during the fault: %s; non-202 p50 %.0f ms, slowest %.0f ms; "
                            + "first 202 %.1f s after the broker was up (-1: none); after it was up: %s%s; "
                            + "%d answered publish-unconfirmed (%d of them in the log, each once); %d events in the log from refused attempts",
                            WRITERS, Samples.histogram(duringFault), Samples.percentileMs(refused, 50), Samples.maxMs(refused),
                            firstAckAfterUp < 0 ? -1.0 : (firstAckAfterUp - outage.upAt()) / 1e9, Samples.histogram(afterUp),
                            afterUp.stream().filter(s -> s.status() != 202).findFirst().map(s -> " e.g. " + s.detail()).orElse(""),
                            unconfirmed.size(), unconfirmedLanded, refusedButInLog.size()));
            report.publish();
            if (notRecovered != null) throw notRecovered;

            assertThat(acks.stream().filter(a -> copies.getOrDefault(a.eventId(), 0L) != 1).toList())
                    .as("acknowledged pins not in the log exactly once").isEmpty();
            assertThat(unconfirmed.stream().filter(u -> copies.getOrDefault(u.eventId(), 0L) > 1).toList())
                    .as("unconfirmed pins in the log more than once").isEmpty();
            assertThat(unconfirmed).as("an unconfirmed answer names the ids it was published with").allSatisfy(u -> assertThat(u.eventId()).isPositive());
            assertThat(refusedButInLog).as("events of attempts refused as 'nothing published'").isEmpty();
            assertThat(refused).as("answers while the broker was down").isNotEmpty()
                    .allSatisfy(s -> assertThat(s.status()).as(s.detail()).isIn(503, 429));
            assertThat(Samples.maxMs(refused)).as("slowest refusal (ms) within the publish timeout").isLessThan(publishTimeoutMs + 5_000);
            // A caller learns fast that the log is unavailable: only requests caught in the first second wait,
            // the others are refused at once (p50 7 ms in docs/benchmarks.md; 1 s max.block.ms at worst). The
            // bound is far from that on a loaded box and far below the 25 s delivery timeout that every new
            // request would wait out if refusals did not come before it (what this catches).
            assertThat(Samples.percentileMs(refused, 50)).as("median refusal (ms) while the broker was down: well before the 25 s delivery timeout")
                    .isLessThan(REFUSED_WELL_BEFORE_DELIVERY_TIMEOUT_MS);
            assertThat(refused.stream().filter(s -> s.status() == 503 && s.detail() != null && s.detail().contains("\"store\":\"kafka\"")).count())
                    .as("503s naming kafka while it was down").isPositive();
        }
    }

    private static void awaitAcks(IngestFixture ingest, int count, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (ingest.acknowledged().size() < count) {
            if (System.nanoTime() > deadline) throw new AssertionError("only " + ingest.acknowledged().size() + " of " + count + " pins acknowledged in " + patience);
            Outage.sleep(100);
        }
    }

    static void awaitUp(TestStack stack, String server) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!stack.servers().isUp(server)) {
            if (System.nanoTime() > deadline) throw new AssertionError(server + " not up 120 s after the fault");
            Outage.sleep(200);
        }
    }

}
