package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.feedstore.InMemoryLastReadStore;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fan-out's dead letters are counted like every ConsumerLoop processor's
 * ({@code pinfeed_dead_letters_total{processor, reason}}), on each of its three paths (undecodable input, an
 * event it does not take, a fan-out that keeps failing), and each keeps the record's own headers, so a
 * redriven pin that fails again carries its redrive header into its second dead letter.
 */
class FanoutDeadLettersTest {

    private static final long ANA = 1_001, BEN = 1_002;
    private static final long RECIPES = 2_001, GARDEN = 2_003;

    @TempDir
    Path stateDir;

    private final InMemoryGraphStore graphStore = new InMemoryGraphStore();
    private FanoutDriver driver;

    @AfterEach
    void close() {
        if (driver != null) driver.close();
    }

    @Test
    void everyDeadLetterIsCountedWithTheFanOutsProcessorTagAndItsReason() {
        new TestGraph(graphStore).board(RECIPES, ANA).followers(ANA, 10, 2).board(GARDEN, BEN).followers(BEN, 20, 2);
        driver = new FanoutDriver(FanoutSettings.defaults(), failingFor(GARDEN), new InMemoryLastReadStore(), stateDir);

        driver.raw("77", "not avro".getBytes(StandardCharsets.UTF_8));
        driver.publish(new UserCreated(5L, Instant.ofEpochMilli(FanoutDriver.START), 6L, 60L, "ada", null));
        driver.created(906, GARDEN, BEN);
        driver.created(905, RECIPES, ANA);
        driver.drain(10);

        assertThat(driver.deadLetters()).hasSize(3);
        Map<String, Double> byReason = driver.meters.find("pinfeed.dead.letters").counters().stream().collect(Collectors.toMap(
                c -> c.getId().getTag("reason"), Counter::count));
        assertThat(byReason).containsOnly(Map.entry(DeadLetters.UNDECODABLE, 1.0), Map.entry(DeadLetters.UNEXPECTED_EVENT, 1.0),
                Map.entry(DeadLetters.PROCESSING_ERROR, 1.0));
        assertThat(driver.meters.find("pinfeed.dead.letters").counters()).allSatisfy(c -> assertThat(c.getId().getTags())
                .extracting(Tag::getKey).containsExactlyInAnyOrder("processor", "reason"))
                .allSatisfy(c -> assertThat(c.getId().getTag("processor")).isEqualTo(FanoutStreamsMain.NAME));
    }

    @Test
    void theCounterIsExportedUnderTheSameNameAndTagsAsAConsumerLoopProcessors() {
        PrometheusMeterRegistry fanout = Meters.newRegistry();
        PrometheusMeterRegistry materializer = Meters.newRegistry();

        new FanoutMetrics(fanout).deadLettered(DeadLetters.UNDECODABLE);
        DeadLetterWriter.counter(materializer, "materializer", DeadLetters.UNDECODABLE).increment();

        assertThat(materializer.scrape()).contains("pinfeed_dead_letters_total{processor=\"materializer\",reason=\"undecodable\"} 1");
        assertThat(fanout.scrape()).contains("pinfeed_dead_letters_total{processor=\"fanout-streams\",reason=\"undecodable\"} 1");
    }

    @Test
    void aRedrivenPinWhoseFanOutFailsAgainKeepsItsHeadersInItsSecondDeadLetter() {
        new TestGraph(graphStore).board(GARDEN, BEN).followers(BEN, 20, 2);
        driver = new FanoutDriver(FanoutSettings.defaults(), failingFor(GARDEN), new InMemoryLastReadStore(), stateDir);
        RecordHeaders redriven = new RecordHeaders();
        redriven.add("trace", "t-1".getBytes(StandardCharsets.UTF_8));
        redriven.add(DeadLetters.HEADER_REDRIVE_FROM, "2:41".getBytes(StandardCharsets.UTF_8));

        driver.publish(new PinCreated(9L, Instant.ofEpochMilli(FanoutDriver.START), BEN, 907L, GARDEN, BEN, "p", null,
                null, null, java.util.List.of()), redriven);
        driver.raw("78", "not avro".getBytes(StandardCharsets.UTF_8));
        driver.drain(10);

        List<TestRecord<byte[], byte[]>> dead = driver.deadLetters();
        assertThat(dead).hasSize(2);
        TestRecord<byte[], byte[]> failedAgain = dead.stream()
                .filter(d -> DeadLetters.PROCESSING_ERROR.equals(header(d, DeadLetters.HEADER_REASON))).findFirst().orElseThrow();
        assertThat(header(failedAgain, DeadLetters.HEADER_REDRIVE_FROM)).isEqualTo("2:41");
        assertThat(header(failedAgain, "trace")).isEqualTo("t-1");
        assertThat(header(failedAgain, DeadLetters.HEADER_SOURCE_TOPIC)).isEqualTo(driver.settings.inputTopic());
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** The graph, whose receivers() of {@code board} fails with an unexpected error (a bug, not an outage). */
    private GraphStore failingFor(long board) {
        return (GraphStore) Proxy.newProxyInstance(GraphStore.class.getClassLoader(), new Class<?>[] {GraphStore.class}, (p, m, args) -> {
            if (m.getName().equals("receivers") && (long) args[0] == board) throw new IllegalStateException("corrupt cursor");
            try {
                return m.invoke(graphStore, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }
}
