package dev.pinfeed.operations.verify.index;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.operations.verify.index.IndexReport.Difference;
import dev.pinfeed.operations.verify.index.IndexReport.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How {@code ./pinfeed verify index} prints a check and a repair: lines for people, or one JSON object
 * per line with {@code --json} (ids as strings, as on the HTTP API: they exceed JavaScript's integers).
 */
final class IndexReportFormat {

    static final String TASK = "verify index";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What was compared: the names in scope, the shards read and the topic looked in. */
    record Header(IndexCheck.Scope scope, int indexShards, int userShards, String usersTopic) {}

    private IndexReportFormat() {}

    /**
     * The summary, the counts, the first {@code maxPrinted} differences and their total. {@code strayUserRows}:
     * user rows left out because their shard and local id make no user id.
     */
    static List<String> text(Header h, IndexReport r, int strayUserRows, int maxPrinted) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format("username index (shards 0-%d) vs user rows (shards 0-%d), %s: %d claims, %d user rows with a username",
                h.indexShards() - 1, h.userShards() - 1, h.scope().isAll() ? "all usernames" : "usernames starting with '" + h.scope().prefix() + "'",
                r.claims(), r.users()));
        List<String> counts = new ArrayList<>();
        r.counts().forEach((kind, n) -> counts.add(kind.title() + ": " + n));
        lines.add(String.join(", ", counts));
        if (strayUserRows > 0) {
            lines.add(strayUserRows + " user rows left out: their shard and local id make no user id, so no claim can name them");
        }
        if (r.awaiting() > 0) {
            lines.add(r.awaiting() + (r.awaiting() == 1 ? " claim awaits its user row" : " claims await their user rows")
                    + " (UserCreated in " + h.usersTopic() + ", not materialized yet): not differences");
        }
        r.differences().stream().limit(maxPrinted).forEach(d -> lines.add("  " + d));
        if (r.differences().size() > maxPrinted) lines.add("  ... " + (r.differences().size() - maxPrinted) + " more");
        lines.add(r.differences().size() + (r.differences().size() == 1 ? " difference" : " differences"));
        return lines;
    }

    static String json(String check, Header h, IndexReport r, int strayUserRows, int maxPrinted) {
        ObjectNode o = JSON.createObjectNode().put("task", TASK).put("check", check).put("usernamesPrefix", h.scope().prefix())
                .put("indexShards", h.indexShards()).put("userShards", h.userShards()).put("usersTopic", h.usersTopic())
                .put("claims", r.claims()).put("users", r.users()).put("awaiting", r.awaiting()).put("strayUserRows", strayUserRows);
        ObjectNode counts = o.putObject("counts");
        for (Map.Entry<Kind, Integer> e : r.counts().entrySet()) counts.put(e.getKey().label(), e.getValue());
        ArrayNode diffs = o.putArray("differences");
        r.differences().stream().limit(maxPrinted).forEach(d -> diffs.add(json(d)));
        o.put("total", r.differences().size()).put("clean", r.clean());
        return o.toString();
    }

    private static ObjectNode json(Difference d) {
        ObjectNode o = JSON.createObjectNode().put("kind", d.kind().label()).put("username", d.username());
        id(o, "claimedUserId", d.claimedUserId());
        id(o, "expectedUserId", d.expectedUserId());
        ArrayNode sharing = o.putArray("sharing");
        d.sharing().forEach(id -> sharing.add(Long.toString(id)));
        o.put("detail", d.detail());
        if (d.fix() == null) o.putNull("repair");
        else o.put("repair", d.fix().describe());
        return o;
    }

    private static void id(ObjectNode o, String field, long id) {
        if (id == 0) o.putNull(field);
        else o.put(field, Long.toString(id));
    }

    static List<String> repairText(IndexRepair.Outcome outcome) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format("repair: %d written, %d with nothing left to change, %d left alone%s",
                outcome.count(IndexRepair.Result.WRITTEN), outcome.count(IndexRepair.Result.NOTHING_TO_CHANGE),
                outcome.count(IndexRepair.Result.LEFT_ALONE), outcome.stopped() ? "; stopped before the rest" : ""));
        outcome.results().forEach((fix, result) -> {
            if (result == IndexRepair.Result.LEFT_ALONE) lines.add("  left alone '" + fix.username() + "': " + fix.describe() + " (" + whyLeftAlone(fix) + ")");
        });
        return lines;
    }

    static String repairJson(IndexRepair.Outcome outcome) {
        ObjectNode o = JSON.createObjectNode().put("task", TASK);
        ObjectNode r = o.putObject("repair").put("written", outcome.count(IndexRepair.Result.WRITTEN))
                .put("nothingToChange", outcome.count(IndexRepair.Result.NOTHING_TO_CHANGE))
                .put("leftAlone", outcome.count(IndexRepair.Result.LEFT_ALONE)).put("stopped", outcome.stopped());
        ArrayNode left = r.putArray("leftAloneFixes");
        outcome.results().forEach((fix, result) -> {
            if (result == IndexRepair.Result.LEFT_ALONE) {
                left.add(JSON.createObjectNode().put("username", fix.username()).put("repair", fix.describe()).put("why", whyLeftAlone(fix)));
            }
        });
        return o.toString();
    }

    private static String whyLeftAlone(IndexFix fix) {
        return fix instanceof IndexFix.InsertClaim ? "another user's claim holds the name now"
                : "the user's row with this username appeared since the scan";
    }
}
