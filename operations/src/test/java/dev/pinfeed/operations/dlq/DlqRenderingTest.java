package dev.pinfeed.operations.dlq;

import static dev.pinfeed.operations.dlq.Letters.T0;
import static dev.pinfeed.operations.dlq.Letters.like;
import static dev.pinfeed.operations.dlq.Letters.likeFailedAgain;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.eventsschema.DeadLetters;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** What list, show and purge print, for people and (--json) for scripts. */
class DlqRenderingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T1 = T0.plus(Duration.ofMinutes(5));
    private static final Instant T2 = T0.plus(Duration.ofMinutes(9));

    private static DeadLetterSummary summary(boolean withIds) {
        DeadLetterId redriven = DeadLetterId.parse("0:1");
        DeadLetterSummary s = new DeadLetterSummary("dlq", Selection.of(null, null, null),
                Map.of(redriven, new RedriveLog.Entry(redriven, "pinfeed.likes.v1-2@60", T1)), withIds);
        s.add(like("0:1", T0));
        s.add(like("1:0", T1));
        s.add(likeFailedAgain("0:2", T2, "0:1"));
        s.add(Letters.letter("2:0", T1, "pinfeed-fanout", "pinfeed.pins.v1", DeadLetters.PROCESSING_ERROR));
        return s;
    }

    @Test
    void listCountsByProcessorSourceTopicAndReasonWithTimesRedrivesAndFailuresAgain() {
        DeadLetterSummary s = summary(false);

        assertThat(s.groups()).containsExactly(
                new DeadLetterSummary.Group("pinfeed-fanout", "pinfeed.pins.v1", DeadLetters.PROCESSING_ERROR, 1, 0, 0, T1, T1),
                new DeadLetterSummary.Group("pinfeed-materializer", "pinfeed.likes.v1", DeadLetters.MISSING_REFERENCE, 3, 1, 1, T0, T2));
        assertThat(s.text()).isEqualTo("""
                dlq: 4 dead letters, 1 redriven, 1 failed again after redrive
                PROCESSOR             SOURCE TOPIC      REASON             COUNT  REDRIVEN  FAILED AGAIN  OLDEST                NEWEST
                pinfeed-fanout        pinfeed.pins.v1   processing-error       1         0             0  2026-11-28T10:05:00Z  2026-11-28T10:05:00Z
                pinfeed-materializer  pinfeed.likes.v1  missing-reference      3         1             1  2026-11-28T10:00:00Z  2026-11-28T10:09:00Z
                """);
    }

    @Test
    void listWithIdsPrintsOneLinePerDeadLetterWithItsState() throws Exception {
        String text = summary(true).text();
        assertThat(text.lines().toList()).element(0).asString().startsWith("ID   TIME").contains("STATE");
        assertThat(text).contains("0:1  2026-11-28T10:00:00Z  pinfeed-materializer  pinfeed.likes.v1-2@57  missing-reference  "
                + "redriven at 2026-11-28T10:05:00Z to pinfeed.likes.v1-2@60  like of pin 42: no such pin");
        assertThat(text).contains("0:2  2026-11-28T10:09:00Z").contains("failed again after redrive of 0:1");
        assertThat(text).contains("1:0  2026-11-28T10:05:00Z").contains("not redriven");

        JsonNode json = JSON.readTree(summary(true).json());
        assertThat(json.get("total").asLong()).isEqualTo(4);
        assertThat(json.get("redriven").asLong()).isEqualTo(1);
        assertThat(json.get("failedAgainAfterRedrive").asLong()).isEqualTo(1);
        assertThat(json.get("groups")).hasSize(2);
        assertThat(json.get("groups").get(1).get("oldest").asText()).isEqualTo(T0.toString());
        assertThat(json.get("deadLetters")).extracting(n -> n.get("id").asText() + " " + n.get("state").asText())
                .containsExactly("0:1 redriven", "1:0 not-redriven", "0:2 failed-again-after-redrive", "2:0 not-redriven");
        assertThat(JSON.readTree(summary(false).json()).has("deadLetters")).isFalse();
    }

    @Test
    void anEmptyListSaysSoWithItsScope() {
        DeadLetterSummary s = new DeadLetterSummary("dlq", Selection.of(DeadLetters.INVALID, null, null), Map.of(), true);
        s.add(like("0:1", T0)); // another reason: not counted
        assertThat(s.text()).isEqualTo("dlq (reason invalid): no dead letters\n");
        assertThat(s.total()).isZero();
    }

    @Test
    void showDecodesTheValueThroughTheRegistryAndPrintsEveryHeader() throws Exception {
        DeadLetter d = likeFailedAgain("0:2", T2, "0:1");
        PinLiked event = new PinLiked(77L, T0, 5L, 5L, 42L);

        String text = DeadLetterView.text("dlq", d, null, bytes -> event);

        assertThat(text).startsWith("dead letter 0:2 of dlq\n");
        assertThat(text).contains("state:     failed again after redrive of 0:1\n");
        assertThat(text).contains("source:    pinfeed.likes.v1-2@57\n");
        for (DeadLetter.HeaderValue h : d.headers()) assertThat(text).contains("  " + h.name() + ": " + h.text() + "\n");
        assertThat(text).contains("key:       42\n").contains("value:     dev.pinfeed.events.PinLiked\n").contains("\"pinId\" : 42");
        assertThat(text).contains("\"occurredAt\" : \"" + T0 + "\"");

        JsonNode json = JSON.readTree(DeadLetterView.json("dlq", d, null, bytes -> event));
        assertThat(json.get("id").asText()).isEqualTo("0:2");
        assertThat(json.get("state").asText()).isEqualTo("failed-again-after-redrive");
        assertThat(json.get("redrivenFrom").asText()).isEqualTo("0:1");
        assertThat(json.get("headers")).hasSize(d.headers().size());
        assertThat(json.get("valueType").asText()).isEqualTo("dev.pinfeed.events.PinLiked");
        assertThat(json.get("value").get("pinId").asLong()).isEqualTo(42);
        assertThat(json.get("value").get("occurredAt").asText()).isEqualTo(T0.toString());
        assertThat(json.get("valueHex").isNull()).isTrue();
    }

    @Test
    void aValueThatDoesNotDecodeIsShownAsItsFirstBytesInHex() throws Exception {
        byte[] big = new byte[300];
        big[0] = (byte) 0xAB;
        DeadLetter d = new DeadLetter(DeadLetterId.parse("1:3"), T0, new byte[] {1, 2}, big, like("1:3", T0).headers());
        DeadLetterId id = d.id();
        RedriveLog.Entry entry = new RedriveLog.Entry(id, "pinfeed.likes.v1-0@3", T1);

        String text = DeadLetterView.text("dlq", d, entry, bytes -> {
            throw new SerializationException("not Confluent wire format: magic byte -85");
        });

        assertThat(text).contains("state:     redriven at 2026-11-28T10:05:00Z to pinfeed.likes.v1-0@3\n");
        assertThat(text).contains("key:       hex:0102\n");
        assertThat(text).contains("value:     300 bytes, not decodable (not Confluent wire format: magic byte -85)\n");
        assertThat(text).contains("  hex (first 256 bytes): ab" + "00".repeat(255) + "\n");

        JsonNode json = JSON.readTree(DeadLetterView.json("dlq", d, entry, bytes -> {
            throw new SerializationException("bad");
        }));
        assertThat(json.get("valueHex").asText()).hasSize(512).startsWith("ab00");
        assertThat(json.get("valueBytes").asInt()).isEqualTo(300);
        assertThat(json.get("decodeError").asText()).isEqualTo("bad");
        assertThat(json.get("value").isNull()).isTrue();
        assertThat(json.get("redrivenTo").asText()).isEqualTo("pinfeed.likes.v1-0@3");
    }

    @Test
    void purgePrintsPerPartitionWhatGoesAndWhatStays() {
        PurgePlan plan = new PurgePlan("dlq", T0, List.of(new PurgePlan.Partition(1, 10, 10, 12), new PurgePlan.Partition(0, 3, 8, 9),
                new PurgePlan.Partition(2, 0, 0, 0)));

        assertThat(plan.goes()).isEqualTo(5);
        assertThat(plan.text(true)).isEqualTo("""
                dlq: dead letters before 2026-11-28T10:00:00Z
                  partition 0: offsets 3..7 go (5), 1 kept
                  partition 1: nothing goes, 2 kept
                  partition 2: nothing goes, 0 kept
                dry run: 5 dead letters would be purged; nothing was deleted
                """);
        assertThat(plan.text(false)).endsWith("purged 5 dead letters\n");
        assertThat(new PurgePlan("dlq", T0, List.of(new PurgePlan.Partition(0, 4, 4, 4))).text(false)).endsWith("nothing to purge\n");
    }
}
