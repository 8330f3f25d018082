package dev.pinfeed.operations.replay;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Interruption;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.operations.OperationsCli;
import dev.pinfeed.processorruntime.KafkaClients;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed replay VIEW --from OFFSET|TIME|beginning [--to OFFSET|TIME] [--dry-run]}; its help is help/replay.txt. */
@Command(name = "replay", mixinStandardHelpOptions = true, description = "Replays a range of a view's topics into the view.")
public final class ReplayCommand implements Callable<Integer> {

    @ParentCommand OperationsCli root;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "VIEW", description = "graph, canonical, pools or fanout") String view;
    @Option(names = "--from", required = true, paramLabel = "POSITION") String from;
    @Option(names = "--to", paramLabel = "POSITION") String to;
    @Option(names = "--dry-run") boolean dryRun;
    @Option(names = "--json") boolean json;
    @Option(names = "--no-verify", negatable = false) boolean noVerify;
    @Option(names = "--force") boolean force;
    @Option(names = "--processors", paramLabel = "local|operator") String processorsMode;

    @Override
    public Integer call() throws Exception {
        if (!ReplayView.NAMES.contains(view)) throw Cli.unknown("view", view, ReplayView.NAMES);
        Clock clock = Clock.systemUTC();
        Position start;
        Optional<Position> end;
        try {
            start = Position.parse(from, clock);
            end = to == null ? Optional.empty() : Optional.of(Position.parse(to, clock));
        } catch (IllegalArgumentException e) {
            throw Cli.usage(spec, e.getMessage());
        }
        if (end.isPresent() && end.get() instanceof Position.Beginning) throw Cli.usage(spec, "--to beginning replays nothing");
        if (processorsMode != null && !processorsMode.equals("local") && !processorsMode.equals("operator")) {
            throw Cli.usage(spec, "--processors is local or operator, not '" + processorsMode + "'");
        }
        PinfeedConfig config = root.config();
        ReplayView v = ReplayView.of(view, config);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Progress.Mode mode = Progress.mode(json);
        PrintWriter progressOut = mode == Progress.Mode.JSON ? out : err;
        Processors processors = root.processors(processorsMode, out);
        @SuppressWarnings("unchecked")
        Supplier<String>[] howToResume = new Supplier[] {() -> "nothing changed"};
        try (KafkaGroups kafka = new KafkaGroups(Admin.create(KafkaClients.admin(config)));
             Interruption interruption = Interruption.install(err, Duration.ofMinutes(3), () -> howToResume[0].get())) {
            if (end.isPresent()) {
                BoundedReplay bounded = new BoundedReplay(kafka, processors, verifier(), config, clock, out, progressOut, mode, interruption);
                howToResume[0] = bounded::howToResume;
                return bounded.run(v, start, end.get(), dryRun, !noVerify);
            }
            Replay replay = new Replay(kafka, processors, verifier(), clock, out, progressOut, mode, interruption);
            howToResume[0] = replay::howToResume;
            return replay.run(new Replay.Request(v, start, dryRun, !noVerify, force));
        }
    }

    private Replay.Verifier verifier() {
        return args -> {
            List<String> line = new ArrayList<>(List.of("verify"));
            line.addAll(args);
            return root.runNested(line.toArray(String[]::new));
        };
    }
}
