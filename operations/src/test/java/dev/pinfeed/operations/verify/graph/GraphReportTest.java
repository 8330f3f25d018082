package dev.pinfeed.operations.verify.graph;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.followergraph.audit.Findings;
import dev.pinfeed.followergraph.audit.KeyDifference;
import dev.pinfeed.followergraph.audit.KeyDifference.MemberDifference;
import dev.pinfeed.followergraph.audit.SequenceDifference;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The report's words and numbers, and the processor-lag rule, without servers. */
class GraphReportTest {

    private final GraphKeys keys = new GraphKeys("p:");

    private KeyDifference difference(String instance, String home, String key, String expectedType, String actualType,
                                     MemberDifference... members) {
        return new KeyDifference(instance, home, key, keys.parse(key).orElseThrow(), expectedType, actualType, List.of(members));
    }

    private final KeyDifference lostEdge = difference("redis001", "redis001", keys.followingExplicit(12), "zset", "zset",
            new MemberDifference("34", "1767225600001", null), new MemberDifference("35", null, "7"), new MemberDifference("36", "5", "6"));
    private final KeyDifference lostBoardFollowers = difference("redis002", "redis002", keys.boardFollowers(12, 900), "hash", "none",
            new MemberDifference("34", "1767225600002", null));
    private final KeyDifference misplaced = difference("redis002", "redis001", keys.boardsOwned(12), "none", "string");
    private final SequenceDifference sequence = new SequenceDifference(12, 34, true, null, null, "3", "redis001", "redis002");

    @Test
    void aKeyIsDescribedWithItsInstanceShapeOwnerAndMembers() {
        assertThat(GraphReport.describe(lostEdge)).isEqualTo("redis001 different " + keys.followingExplicit(12)
                + " (user 12): missing user 34 (1767225600001); extra user 35 (7); user 36: 5 expected, 6 found");
        assertThat(GraphReport.describe(lostBoardFollowers)).isEqualTo("redis002 missing " + keys.boardFollowers(12, 900)
                + " (board 900): missing user 34 (1767225600002)");
        assertThat(GraphReport.describe(misplaced)).isEqualTo("redis002 extra " + keys.boardsOwned(12)
                + " (user 12; belongs on redis001; a string, not a zset)");
        assertThat(GraphReport.describe(sequence)).isEqualTo("user 12 -> user 34: register sequence absent and applied absent on redis001,"
                + " applied 3 on the followee's side on redis002");
    }

    private GraphVerification.EventTally events() {
        GraphVerification.EventTally events = new GraphVerification.EventTally();
        events.records = 10;
        events.applied = 8;
        events.ignored = 1;
        events.rejected.put("undecodable", 1L);
        events.offsets = Map.of(new TopicPartition("follows", 0), 6L, new TopicPartition("follows", 1), 3L, new TopicPartition("boards", 0), 1L);
        return events;
    }

    private final Findings findings = new Findings(List.of(lostEdge, lostBoardFollowers, misplaced), List.of(sequence),
            Map.of("redis001", 40L, "redis002", 39L), 80);

    @Test
    void theTextSummarizesByKindAndInstanceAndNamesTheUsersAndBoards() {
        StringWriter text = new StringWriter();
        new GraphReport(new PrintWriter(text), false, 1, "p:", List.of("follows", "boards"), "g")
                .verified(new GraphVerification.Settled(findings, 2, 0), events());
        assertThat(text.toString()).contains(
                "events: 10 records to offsets {boards=1, follows=9}; 8 applied, 1 ignored (no graph change), 1 not applied"
                        + " (dead-lettered by the processor too: {undecodable=1})",
                "graph keys: 80 expected; found {redis001=40, redis002=39}",
                "re-checked 2 times after the graph processor (group g) passed the topics' end offsets",
                "4 differences: 3 keys (missing 1, extra 1, different 1) on {redis001=1, redis002=2}; 1 pairs with inconsistent sequences;"
                        + " 4 users and 1 boards involved",
                "following-explicit   redis001          0      0          1",
                "sequences            redis001          0      0          1",
                "users involved: 12, 34, 35, 36", "boards involved: 900");
    }

    @Test
    void aLaggingProcessorIsSaidAndJsonCarriesEveryNumber() throws Exception {
        StringWriter text = new StringWriter();
        new GraphReport(new PrintWriter(text), false, 20, "p:", List.of("follows"), "g")
                .verified(new GraphVerification.Settled(findings, 1, 17), events());
        assertThat(text.toString()).contains("did not pass the topics' end offsets in time (17 records behind)");

        StringWriter json = new StringWriter();
        new GraphReport(new PrintWriter(json), true, 2, "p:", List.of("follows"), "g")
                .verified(new GraphVerification.Settled(findings, 1, 17), events());
        JsonNode n = new ObjectMapper().readTree(json.toString());
        assertThat(n.get("report").asText()).isEqualTo("verify");
        assertThat(n.get("clean").asBoolean()).isFalse();
        assertThat(n.get("processorLag").asLong()).isEqualTo(17);
        assertThat(n.get("differences").get("missing").asInt()).isOne();
        assertThat(n.get("differences").get("byKind").get("board-followers").get("redis002").get("missing").asInt()).isOne();
        assertThat(n.get("keys")).hasSize(3);
        assertThat(n.get("keys").get(0).get("members").get(1).get("actual").asText()).isEqualTo("7");
        assertThat(n.get("sequences").get(0).get("followeeApplied").asText()).isEqualTo("3");
        assertThat(n.get("events").get("notApplied").get("undecodable").asLong()).isOne();
    }

    @Test
    void theLagIsWhatTheGroupHasNotCommittedOfTheTarget() {
        TopicPartition a = new TopicPartition("t", 0), b = new TopicPartition("t", 1), c = new TopicPartition("t", 2);
        Map<TopicPartition, Long> target = Map.of(a, 10L, b, 5L, c, 0L);
        assertThat(GraphVerification.lag(target, Map.of(a, 10L, b, 5L))).isZero();
        assertThat(GraphVerification.lag(target, Map.of(a, 7L, b, 9L))).as("ahead on one partition does not make up for another").isEqualTo(3);
        assertThat(GraphVerification.lag(target, Map.of())).as("a group that never committed").isEqualTo(15);
    }
}
