package dev.pinfeed.operations.dlq;

import static dev.pinfeed.operations.dlq.Letters.T0;
import static dev.pinfeed.operations.dlq.Letters.like;
import static dev.pinfeed.operations.dlq.Letters.likeFailedAgain;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.eventsschema.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/** Which dead letters a redrive takes, what it sends for each, and how the redrive log keeps it from sending one twice. */
class RedriveSelectionTest {

    private static final Instant T1 = T0.plus(Duration.ofHours(1));

    @Test
    void aSelectionByReasonNarrowsByProcessorAndTimeAndOneByIdsTakesExactlyThose() {
        DeadLetter early = like("0:1", T0);
        DeadLetter late = like("0:2", T1);
        DeadLetter invalid = Letters.letter("1:1", T1, "pinfeed-materializer", "pinfeed.pins.v1", DeadLetters.INVALID);
        DeadLetter graph = Letters.letter("2:1", T1, "pinfeed-follower-graph", "pinfeed.likes.v1", DeadLetters.MISSING_REFERENCE);
        List<DeadLetter> all = List.of(early, late, invalid, graph);

        assertThat(all.stream().filter(Selection.of(DeadLetters.MISSING_REFERENCE, null, null)::matches)).containsExactly(early, late, graph);
        assertThat(all.stream().filter(Selection.of(DeadLetters.MISSING_REFERENCE, "pinfeed-materializer", null)::matches))
                .containsExactly(early, late);
        assertThat(all.stream().filter(Selection.of(DeadLetters.MISSING_REFERENCE, "pinfeed-materializer", T1)::matches)).containsExactly(late);
        assertThat(all.stream().filter(Selection.of(null, null, null)::matches)).containsExactlyElementsOf(all);
        assertThat(all.stream().filter(Selection.ofIds(Set.of(DeadLetterId.parse("1:1"), DeadLetterId.parse("0:1")))::matches))
                .containsExactly(early, invalid);
        assertThat(Selection.of(DeadLetters.INVALID, "g", T0).describe()).isEqualTo("reason invalid, processor g, since " + T0);
        assertThat(Selection.ofIds(Set.of(DeadLetterId.parse("1:1"), DeadLetterId.parse("0:7"))).describe()).isEqualTo("ids 0:7, 1:1");
    }

    @Test
    void thePlanSkipsWhatWasRedrivenWhatFailedAgainAndWhatHasNowhereToGo() {
        DeadLetter fresh = like("0:3", T0);
        DeadLetter redriven = like("0:1", T0);
        DeadLetter failedAgain = likeFailedAgain("1:0", T1, "0:1");
        DeadLetter noSource = Letters.letter("1:4", T0, "pinfeed-materializer", null, DeadLetters.MISSING_REFERENCE);
        DeadLetter goneTopic = Letters.letter("2:0", T0, "pinfeed-materializer", "it-deleted", DeadLetters.MISSING_REFERENCE);
        DeadLetter pin = Letters.letter("0:2", T0, "pinfeed-fanout", "pinfeed.pins.v1", DeadLetters.PROCESSING_ERROR);

        RedrivePlan plan = RedrivePlan.of(List.of(fresh, redriven, failedAgain, noSource, goneTopic, pin), Set.of(redriven.id()),
                t -> !t.equals("it-deleted"));

        assertThat(plan.toRedrive()).containsExactly(pin, fresh);
        assertThat(plan.alreadyRedriven()).containsExactly(redriven);
        assertThat(plan.failedAgain()).containsExactly(failedAgain);
        assertThat(plan.unroutable()).containsExactly(noSource, goneTopic);
        assertThat(plan.bySourceTopic()).containsExactly(Map.entry("pinfeed.likes.v1", 1), Map.entry("pinfeed.pins.v1", 1));
        assertThat(plan.selected()).isEqualTo(6);
    }

    @Test
    void deadLettersOfOneRecordByTwoProcessorsSendItBackOnce() {
        DeadLetter byMaterializer = Letters.letter("0:5", T0, "pinfeed-materializer", "pinfeed.pins.v1", DeadLetters.UNDECODABLE);
        DeadLetter byFanout = Letters.letter("1:5", T0, "pinfeed-fanout", "pinfeed.pins.v1", DeadLetters.UNDECODABLE);
        DeadLetter otherRecord = Letters.letter("0:6", T0, "pinfeed-fanout", "pinfeed.pins.v1", DeadLetters.UNDECODABLE,
                DeadLetters.HEADER_SOURCE_OFFSET, "58");
        DeadLetter unknownSource = Letters.letter("0:7", T0, "pinfeed-fanout", null, DeadLetters.UNDECODABLE);

        RedrivePlan plan = RedrivePlan.of(List.of(byMaterializer, byFanout, otherRecord, unknownSource), Set.of(), t -> true);

        assertThat(otherRecord.source()).isNotEqualTo(byFanout.source());
        assertThat(plan.bySourceRecord()).containsExactly(List.of(byMaterializer, byFanout), List.of(otherRecord));
        assertThat(plan.bySourceTopic()).containsExactly(Map.entry("pinfeed.pins.v1", 2));
        assertThat(unknownSource.sourceKnown()).isFalse();
    }

    @Test
    void aRedriveSendsTheOriginalRecordWithItsOwnHeadersAndTheRedriveHeadersToItsSourceTopic() {
        DeadLetter d = like("2:41", T0);

        ProducerRecord<byte[], byte[]> r = Redriver.redriven(d, T1);

        assertThat(r.topic()).isEqualTo("pinfeed.likes.v1");
        assertThat(r.partition()).as("partitioned by key, like the producers").isNull();
        assertThat(r.key()).isEqualTo(d.key());
        assertThat(r.value()).isEqualTo(d.value());
        assertThat(r.headers().toArray()).extracting(Header::key)
                .containsExactly("trace", DeadLetters.HEADER_REDRIVE_FROM, DeadLetters.HEADER_REDRIVE_AT);
        assertThat(text(r, DeadLetters.HEADER_REDRIVE_FROM)).isEqualTo("2:41");
        assertThat(text(r, DeadLetters.HEADER_REDRIVE_AT)).isEqualTo(T1.toString());
        assertThat(text(r, "trace")).isEqualTo("t-2:41");
    }

    @Test
    void aDeadLetterKnowsItsOriginAndWhetherItWasARedrive() {
        DeadLetter d = likeFailedAgain("1:0", T1, "0:1");
        assertThat(d.reason()).isEqualTo(DeadLetters.MISSING_REFERENCE);
        assertThat(d.processor()).isEqualTo("pinfeed-materializer");
        assertThat(d.source()).isEqualTo("pinfeed.likes.v1-2@57");
        assertThat(d.redrivenFrom()).contains("0:1");
        assertThat(d.failedAgainAfterRedrive()).isTrue();
        assertThat(d.originalHeaders()).extracting(DeadLetter.HeaderValue::name).containsExactly("trace");
        assertThat(like("0:1", T0).failedAgainAfterRedrive()).isFalse();
    }

    @Test
    void theRedriveLogKeepsTheLatestEntryPerDeadLetterOfItsTopicOnly() {
        Map<DeadLetterId, RedriveLog.Entry> entries = new HashMap<>();
        DeadLetterId a = DeadLetterId.parse("0:1");
        DeadLetterId b = DeadLetterId.parse("1:7");
        RedriveLog.apply(entries, "dlq", RedriveLog.key("dlq", a), RedriveLog.value(new RedriveLog.Entry(a, "likes-2@5", T0)));
        RedriveLog.apply(entries, "dlq", RedriveLog.key("dlq", b), RedriveLog.value(new RedriveLog.Entry(b, "likes-0@9", T0)));
        RedriveLog.apply(entries, "dlq", RedriveLog.key("dlq", b), null); // a tombstone
        RedriveLog.apply(entries, "dlq", RedriveLog.key("other-dlq", b), RedriveLog.value(new RedriveLog.Entry(b, "x-0@1", T1)));
        RedriveLog.apply(entries, "dlq", "dlq/garbage".getBytes(StandardCharsets.UTF_8), new byte[] {1});
        RedriveLog.apply(entries, "dlq", RedriveLog.key("dlq", DeadLetterId.parse("2:2")), "not json".getBytes(StandardCharsets.UTF_8));

        assertThat(entries).containsOnlyKeys(a, DeadLetterId.parse("2:2"));
        assertThat(entries.get(a)).isEqualTo(new RedriveLog.Entry(a, "likes-2@5", T0));
        assertThat(entries.get(DeadLetterId.parse("2:2")).redrivenTo()).as("unreadable, still counted as redriven").isEqualTo("(unknown)");
        assertThat(new String(RedriveLog.key("pinfeed.dead-letter.v1", a), StandardCharsets.UTF_8)).isEqualTo("pinfeed.dead-letter.v1/0:1");
    }

    @Test
    void aRedriveGoesInBatchesAndAStopRequestEndsItBetweenTwo() {
        List<DeadLetter> todo = IntStream.range(0, 250).mapToObj(i -> like("0:" + i, T0)).toList();
        List<List<DeadLetter>> sent = new ArrayList<>();

        assertThat(DlqRedriveCommand.inBatches(todo, 100, sent::add, () -> false)).isTrue();
        assertThat(sent).extracting(List::size).containsExactly(100, 100, 50);
        assertThat(sent.stream().flatMap(List::stream)).containsExactlyElementsOf(todo);

        sent.clear();
        assertThat(DlqRedriveCommand.inBatches(todo, 100, sent::add, () -> sent.size() == 1)).as("stopped").isFalse();
        assertThat(sent).singleElement().isEqualTo(todo.subList(0, 100));
    }

    @Test
    void eachDeadLetterTopicRedrivesUnderItsOwnTransactionalId() {
        assertThat(Redriver.transactionalId("pinfeed.dead-letter.v1")).isEqualTo("pinfeed-dlq-redrive-pinfeed.dead-letter.v1");
        assertThat(Redriver.transactionalId("a")).isNotEqualTo(Redriver.transactionalId("b"));
    }

    private static String text(ProducerRecord<byte[], byte[]> r, String header) {
        return new String(r.headers().lastHeader(header).value(), StandardCharsets.UTF_8);
    }
}
