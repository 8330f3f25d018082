package dev.pinfeed.operations.dlq;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Interruption;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.clikit.TimeArgument;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.operations.kafka.TopicRanges;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ./pinfeed dlq redrive}: the selected dead letters' original records back onto their source topics, each
 * once (the redrive log), never one that failed again after a redrive; in transactions of {@value #BATCH}.
 */
@Command(name = "redrive", mixinStandardHelpOptions = true,
        description = {"Sends each selected dead letter's original record (key, value, its own headers) back to its source topic with",
                "the redrive headers, once: dead letters already redriven, and those that failed again after a redrive, are skipped."})
final class DlqRedriveCommand implements Callable<Integer> {

    /** Dead letters per Kafka transaction: what an interruption can leave unsent, to be sent by the next run. */
    static final int BATCH = 100;

    @ParentCommand DlqCommand dlq;
    @Spec CommandSpec spec;

    @Option(names = "--reason", paramLabel = "R", description = "the dead letters of this reason") String reason;
    @Option(names = "--processor", paramLabel = "P", description = "with --reason: only this processor's (its consumer group)") String processor;
    @Option(names = "--since", paramLabel = "TIME", description = "with --reason: only those from TIME on: " + TimeArgument.FORMS) String since;
    @Option(names = "--ids", paramLabel = "ID,ID...", description = "exactly these dead letters (PARTITION:OFFSET)") String ids;
    @Option(names = "--dry-run", description = "print what would be redriven, send nothing") boolean dryRun;

    @Override
    public Integer call() {
        Selection selection = selection();
        PinfeedConfig config = dlq.config();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String logTopic = dlq.redrivesTopic();
        try (TopicRanges ranges = TopicRanges.open(config)) {
            DeadLetterTopic topic = new DeadLetterTopic(ranges, dlq.topic());
            topic.partitions();
            if (!ranges.exists(logTopic)) {
                throw new IllegalStateException("no redrive log " + logTopic + " (" + DeadLetters.REDRIVES_TOPIC_KEY + " names it; ./pinfeed provision creates "
                        + DeadLetters.REDRIVES_TOPIC + ")");
            }
            // Open first: it takes over from an earlier redrive still running, so the log read next is complete.
            try (Redriver redriver = dryRun ? null : Redriver.open(config, topic.name(), logTopic)) {
                Map<DeadLetterId, RedriveLog.Entry> redriven = RedriveLog.read(ranges, logTopic, topic.name());
                List<DeadLetter> selected = select(topic, selection, err);
                Map<String, Boolean> exists = new HashMap<>();
                RedrivePlan plan = RedrivePlan.of(selected, redriven.keySet(), t -> exists.computeIfAbsent(t, ranges::exists));
                printPlan(out, topic.name(), selection, plan);
                if (plan.toRedrive().isEmpty()) {
                    out.println("nothing to redrive");
                    return Cli.OK;
                }
                if (dryRun) {
                    out.println("dry run: would redrive " + plan.toRedrive().size() + ": " + ids(plan.toRedrive()) + "; nothing was sent");
                    return Cli.OK;
                }
                return send(redriver, plan, out, err);
            }
        } finally {
            out.flush();
        }
    }

    /** Either {@code --reason} (narrowed by {@code --processor}, {@code --since}) or {@code --ids}. */
    private Selection selection() {
        if (ids != null) {
            if (reason != null || processor != null || since != null) {
                throw Cli.usage(spec, "--ids selects exactly its dead letters: no --reason, --processor or --since with it");
            }
            return Selection.ofIds(new LinkedHashSet<>(DeadLetterId.parseList(ids)));
        }
        if (reason == null) throw Cli.usage(spec, "say which dead letters: --reason R [--processor P] [--since TIME], or --ids ID,ID...");
        return Selection.of(DlqCommand.reason(reason), processor, since == null ? null : TimeArgument.parse(since, dlq.clock()));
    }

    private List<DeadLetter> select(DeadLetterTopic topic, Selection selection, PrintWriter err) {
        List<DeadLetter> selected = new ArrayList<>();
        if (selection.byIds()) {
            Map<DeadLetterId, DeadLetter> found = topic.fetch(selection.ids());
            List<DeadLetterId> missing = selection.ids().stream().filter(id -> !found.containsKey(id)).sorted().toList();
            if (!missing.isEmpty()) {
                throw new IllegalStateException(topic.whyMissing(missing.get(0)) + (missing.size() > 1 ? " (and " + (missing.size() - 1)
                        + " more ids not found)" : "") + "; nothing was redriven");
            }
            selected.addAll(found.values());
            return selected;
        }
        topic.read(topic.range(selection.since()), err, dlq.clock(), d -> {
            if (selection.matches(d)) selected.add(d);
        });
        return selected;
    }

    private static void printPlan(PrintWriter out, String topic, Selection selection, RedrivePlan plan) {
        out.printf("%s, %s: %s%n", topic, selection.describe(), DeadLetterView.deadLetters(plan.selected()));
        if (!plan.toRedrive().isEmpty()) out.printf("  %d to redrive %s%n", plan.toRedrive().size(), plan.bySourceTopic());
        if (!plan.alreadyRedriven().isEmpty()) out.printf("  %d already redriven, skipped%n", plan.alreadyRedriven().size());
        if (!plan.failedAgain().isEmpty()) {
            out.printf("  %d failed again after redrive, skipped (fix the cause; ./pinfeed dlq show ID): %s%n", plan.failedAgain().size(),
                    ids(plan.failedAgain()));
        }
        if (!plan.unroutable().isEmpty()) {
            out.printf("  %d with no source topic to go back to, skipped: %s%n", plan.unroutable().size(), ids(plan.unroutable()));
        }
    }

    private int send(Redriver redriver, RedrivePlan plan, PrintWriter out, PrintWriter err) {
        List<DeadLetter> todo = plan.toRedrive();
        List<List<DeadLetter>> records = plan.bySourceRecord();
        AtomicLong done = new AtomicLong();
        Interruption interruption = Interruption.install(err, Duration.ofSeconds(30), () -> "redriven " + done.get() + " of " + todo.size()
                + "; run the same command again to redrive the rest (dead letters already redriven are skipped)");
        try (interruption;
             Progress progress = Progress.start(err, Progress.mode(false), "redrive", todo.size(), "dead letters", dlq.clock())) {
            boolean complete = inBatches(records, BATCH, batch -> {
                redriver.send(batch, dlq.clock().instant().truncatedTo(ChronoUnit.MILLIS));
                int letters = batch.stream().mapToInt(List::size).sum();
                done.addAndGet(letters);
                progress.advance(letters);
                progress.tick();
            }, interruption::requested);
            if (!complete) {
                out.printf("interrupted: redriven %d of %d%n", done.get(), todo.size());
                return Cli.INTERRUPTED;
            }
            progress.done(done.get() + " redriven");
        }
        out.printf("redriven %s as %d records %s%n", DeadLetterView.deadLetters(done.get()), records.size(), plan.bySourceTopic());
        return Cli.OK;
    }

    /**
     * Hands {@code todo} (records, each with its dead letters) to {@code send} {@code size} at a time, in order, until all went or {@code stop} says so
     * (asked before each batch: a batch once begun is finished). Returns whether all went.
     */
    static <T> boolean inBatches(List<T> todo, int size, Consumer<List<T>> send, BooleanSupplier stop) {
        for (int i = 0; i < todo.size(); i += size) {
            if (stop.getAsBoolean()) return false;
            send.accept(todo.subList(i, Math.min(todo.size(), i + size)));
        }
        return true;
    }

    private static String ids(List<DeadLetter> letters) {
        int shown = 20;
        String list = String.join(",", letters.stream().limit(shown).map(d -> d.id().toString()).toList());
        return letters.size() > shown ? list + ",... (" + (letters.size() - shown) + " more: dlq list --ids)" : list;
    }
}
