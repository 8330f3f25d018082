package dev.pinfeed.operations.replay;

import dev.pinfeed.clikit.Progress;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** The plan of a replay, per partition: a table for people, one JSON object per partition for machines. */
final class PlanReport {

    private PlanReport() {}

    static void print(PrintWriter out, Progress.Mode mode, ReplayView view, Position from, List<PartitionPlan> plan, boolean dryRun) {
        long total = plan.stream().mapToLong(PartitionPlan::records).sum();
        if (mode == Progress.Mode.JSON) {
            for (PartitionPlan p : plan) {
                out.printf(Locale.ROOT, "{\"view\":%s,\"group\":%s,\"topic\":%s,\"partition\":%d,\"logStart\":%d,\"logEnd\":%d,\"current\":%s,"
                                + "\"target\":%d,\"end\":%d,\"records\":%d,\"dryRun\":%b}%n", Progress.quote(view.name()), Progress.quote(p.group()),
                        Progress.quote(p.topic()), p.partition(), p.logStart(), p.logEnd(), p.current() < 0 ? "null" : Long.toString(p.current()),
                        p.target(), p.end(), p.records(), dryRun);
            }
            out.flush();
            return;
        }
        out.printf(Locale.ROOT, "%sreplay %s from %s: %s records in %d partitions (%s)%n", dryRun ? "dry run: " : "", view.name(), from,
                Progress.number(total), plan.size(), String.join(", ", view.groupIds()));
        int g = Math.max(5, plan.stream().mapToInt(p -> p.group().length()).max().orElse(5));
        int t = Math.max(5, plan.stream().mapToInt(p -> p.topic().length()).max().orElse(5));
        String row = "%-" + g + "s  %-" + t + "s  %4s  %12s  %12s  %12s  %12s%n";
        out.printf(Locale.ROOT, row, "GROUP", "TOPIC", "PART", "CURRENT", "TARGET", "END", "RECORDS");
        for (PartitionPlan p : plan) {
            out.printf(Locale.ROOT, row, p.group(), p.topic(), p.partition(), p.current() < 0 ? "-" : Long.toString(p.current()),
                    p.target(), p.end(), p.records());
        }
        if (dryRun) out.println("nothing changed (--dry-run)");
        out.flush();
    }
}
