package dev.pinfeed.operations.verify.index;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.operations.verify.index.IndexCheck.Scope;
import dev.pinfeed.operations.verify.index.IndexReport.Difference;
import dev.pinfeed.operations.verify.index.IndexReport.Kind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IndexReportFormatTest {

    private static final IndexReportFormat.Header HEADER = new IndexReportFormat.Header(new Scope("it_"), 4096, 8192, "pinfeed.users.v1");
    private static final long BIG = 162270461512646657L; // beyond JavaScript's 2^53

    private static IndexReport report() {
        return new IndexReport(3, 2, 1, List.of(
                new Difference(Kind.ORPHAN, "it_a", BIG, 0, List.of(), "no row", new IndexFix.DeleteClaim(1, "it_a", BIG, true)),
                new Difference(Kind.SHARED, "it_b", 5, 5, List.of(6L), "shared", null),
                new Difference(Kind.MISSING, "it_c", 0, 7, List.of(), "no claim", new IndexFix.InsertClaim(2, "it_c", 7))));
    }

    @Test
    void textSaysWhatWasComparedTheCountsAndTheFirstDifferences() {
        List<String> lines = IndexReportFormat.text(HEADER, report(), 0, 2);
        assertThat(lines.get(0)).isEqualTo("username index (shards 0-4095) vs user rows (shards 0-8191), usernames starting with 'it_': 3 claims, 2 user rows with a username");
        assertThat(lines.get(1)).isEqualTo("orphan claims: 1, missing claims: 1, claims naming the wrong user: 0, usernames shared by several users: 1, misplaced claims: 0");
        assertThat(lines.get(2)).contains("1 claim awaits its user row").contains("pinfeed.users.v1");
        assertThat(lines.get(3)).contains("orphan", "'it_a'", "repair: delete the claim naming " + BIG);
        assertThat(lines.get(4)).contains("shared", "'it_b'", "not repaired automatically");
        assertThat(lines.get(5)).isEqualTo("  ... 1 more");
        assertThat(lines.get(6)).isEqualTo("3 differences");
        assertThat(IndexReportFormat.text(HEADER, report(), 4, 50)).anyMatch(l -> l.startsWith("4 user rows left out"));
    }

    @Test
    void jsonCarriesCountsTheFirstDifferencesAndIdsAsStrings() throws Exception {
        JsonNode o = new ObjectMapper().readTree(IndexReportFormat.json("verify", HEADER, report(), 0, 2));
        assertThat(o.path("task").asText()).isEqualTo("verify index");
        assertThat(o.path("check").asText()).isEqualTo("verify");
        assertThat(o.path("usernamesPrefix").asText()).isEqualTo("it_");
        assertThat(o.path("counts").path("orphan").asInt()).isEqualTo(1);
        assertThat(o.path("counts").path("wrong-user").asInt()).isZero();
        assertThat(o.path("differences")).hasSize(2);
        JsonNode orphan = o.path("differences").get(0);
        assertThat(orphan.path("claimedUserId").isTextual()).isTrue();
        assertThat(orphan.path("claimedUserId").asText()).isEqualTo(Long.toString(BIG));
        assertThat(orphan.path("expectedUserId").isNull()).isTrue();
        assertThat(o.path("differences").get(1).path("sharing").get(0).asText()).isEqualTo("6");
        assertThat(o.path("differences").get(1).path("repair").isNull()).isTrue();
        assertThat(o.path("total").asInt()).isEqualTo(3);
        assertThat(o.path("clean").asBoolean()).isFalse();
    }

    @Test
    void theRepairCountsEachResultAndNamesWhatWasLeftAlone() throws Exception {
        Map<IndexFix, IndexRepair.Result> results = new LinkedHashMap<>();
        results.put(new IndexFix.DeleteClaim(1, "it_a", 9, true), IndexRepair.Result.WRITTEN);
        results.put(new IndexFix.MoveClaim(1, "it_b", 2, 1, true), IndexRepair.Result.LEFT_ALONE);
        results.put(new IndexFix.InsertClaim(1, "it_c", 3), IndexRepair.Result.NOTHING_TO_CHANGE);
        IndexRepair.Outcome outcome = new IndexRepair.Outcome(results, false);
        List<String> lines = IndexReportFormat.repairText(outcome);
        assertThat(lines.get(0)).isEqualTo("repair: 1 written, 1 with nothing left to change, 1 left alone");
        assertThat(lines.get(1)).contains("'it_b'", "move the claim from 2 to 1", "appeared since the scan");
        JsonNode o = new ObjectMapper().readTree(IndexReportFormat.repairJson(outcome));
        assertThat(o.path("repair").path("written").asInt()).isEqualTo(1);
        assertThat(o.path("repair").path("leftAloneFixes").get(0).path("username").asText()).isEqualTo("it_b");
    }
}
