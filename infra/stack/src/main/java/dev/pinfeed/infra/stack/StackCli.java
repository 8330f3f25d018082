package dev.pinfeed.infra.stack;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Progress;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ./pinfeed} stack commands. Nothing is started, stopped or even probed before the command line
 * parsed: {@code --help} and mistakes are free. Exit codes: 0 done (status: everything that should run is
 * up), 1 failed or unhealthy, 2 usage error; errors are one line on stderr.
 */
@Command(name = "pinfeed", mixinStandardHelpOptions = true, version = "pinfeed stack launcher",
        description = "Runs the local stack: servers (Kafka, registry, HBase x2, MariaDB, Redis) and pinfeed's apps.",
        subcommands = {StackCli.Dev.class, StackCli.Up.class, StackCli.Stop.class, StackCli.Status.class, StackCli.Token.class,
                StackCli.Start.class, StackCli.Restart.class, StackCli.Kill.class, StackCli.Logs.class,
                StackCli.Kafka.class, CommandLine.HelpCommand.class})
public final class StackCli implements Callable<Integer> {

    @Spec CommandSpec spec;

    private LocalStack stack;

    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** Runs one command line; returns the exit code. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        CommandLine cmd = Cli.commandLine(new StackCli(), out, err);
        // Everything after the tool name belongs to Kafka's tool (its own --options included).
        cmd.getSubcommands().get("kafka").setStopAtPositional(true);
        return Cli.execute(cmd, args);
    }

    /** No command: the usage, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return Cli.USAGE;
    }

    /** Set by {@code dev} before it asks for the stack: the stack is then sized for {@code ./pinfeed dev}. */
    private boolean devRuns;

    /**
     * The stack, sized for {@code ./pinfeed dev} ({@link LocalStack#devSized}) when this is that command or one runs: a
     * server started or restarted from another shell then gets the same size as the dev supervisor's.
     */
    LocalStack stack() {
        if (stack == null) {
            boolean dev = devRuns || new Supervisor(StackLayout.discover()).other().isPresent();
            stack = LocalStack.fromEnvironment(line -> say(spec.commandLine().getOut(), line), dev);
        }
        return stack;
    }

    static void say(PrintWriter out, String line) {
        out.println("[pinfeed] " + line);
        out.flush();
    }

    /** Base of the subcommands: the shared stack, output. */
    abstract static class Sub implements Callable<Integer> {
        @ParentCommand StackCli parent;
        @Spec CommandSpec spec;

        LocalStack stack() {
            return parent.stack();
        }

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        void say(String line) {
            StackCli.say(out(), line);
        }

        /** The one server or app argument, checked against the stack's names. */
        String serverArg(List<String> given) {
            List<String> names = stack().serverNames();
            if (given == null || given.size() != 1) {
                throw Cli.usage(spec, spec.name() + " takes one server name: " + String.join(", ", names));
            }
            if (!names.contains(given.get(0))) throw Cli.unknown("server", given.get(0), names);
            return given.get(0);
        }
    }

    @Command(name = "dev", mixinStandardHelpOptions = true,
            description = {"Starts the servers and the apps in the foreground, loads the demo dataset and prints the endpoints.",
                    "Ctrl-C (or ./pinfeed stop) stops everything."})
    static final class Dev extends Sub {
        /** How often the watchdog looks; a dead process is started again after two looks (2-4 s). */
        private static final Duration WATCH_INTERVAL = Duration.ofSeconds(2);
        /** How often a stack that was not all healthy at the end of its start is looked at again, until it is. */
        private static final Duration HEALTH_LOOK_INTERVAL = Duration.ofSeconds(10);

        @Option(names = "--fresh", description = "Wipe all local data first.") boolean fresh;
        @Option(names = "--ready-timeout", description = "How long to wait for the apps to become ready (default: ${DEFAULT-VALUE}).",
                defaultValue = "PT90S") Duration readyTimeout;

        @Override
        public Integer call() throws Exception {
            parent.devRuns = true;
            LocalStack stack = stack();
            Supervisor supervisor = new Supervisor(stack.layout());
            if (supervisor.other().isPresent()) {
                throw new IllegalStateException("./pinfeed dev is already running (pid " + supervisor.other().get().pid() + ")");
            }
            if (fresh) wipe(stack, supervisor, this::say);
            CountDownLatch stopped = new CountDownLatch(1);
            AtomicBoolean stopping = new AtomicBoolean();
            Watchdog watchdog = new Watchdog(stack.watchdogView(), Clock.systemUTC(), this::say);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                stopping.set(true);
                out().println();
                say("stopping the stack ...");
                watchdog.close();
                stack.stop();
                supervisor.clear();
                stopped.countDown();
            }, "pinfeed-stop"));
            supervisor.claim();
            try {
                stack.start();
            } catch (Exception e) {
                spec.commandLine().getErr().println("pinfeed: " + Cli.firstLine(e));
                System.exit(Cli.FAILED); // the hook stops what did start
            }
            List<String> problems = new ArrayList<>(stack.startApps());
            problems.addAll(awaitReady(stack));
            if (stack.isUp("ingest-api")) {
                try {
                    stack.loadDemoDataset(out(), Progress.mode(false));
                } catch (Exception e) {
                    if (!stopping.get()) throw e;
                    // Ctrl-C during the load: its request was cut by the stop, not a failure worth a stack of words.
                    say("demo dataset: stopped halfway; the next ./pinfeed dev resumes it");
                    stopped.await();
                    return Cli.OK;
                }
                // The demo's burst can leave a processor briefly not ready (a store slow under the load): let it catch up.
                if (problems.isEmpty()) problems.addAll(awaitReady(stack));
            } else {
                problems.add("demo dataset not loaded: ingest-api is not ready");
            }
            out().println();
            List<LocalStack.Row> rows = stack.status(true);
            out().print(StatusReport.table(rows, stack));
            out().println();
            // The final word matches the table above: a process sick now (e.g. a store slow under the demo load) is named.
            rows.stream().filter(LocalStack.Row::failing).filter(r -> problems.stream().noneMatch(p -> p.startsWith(r.name())))
                    .forEach(r -> problems.add(r.name() + " is " + r.state() + " now" + (r.detail() == null || r.detail().isBlank() ? "" : ": " + r.detail())
                            + " (it may recover by itself: ./pinfeed status)"));
            say("console       http://" + stack.config().hostPort("console.http") + "/  (open it: sign in as "
                    + DemoPlan.username(0) + ", the home feed, profiles, the pipeline)");
            say("ingest-api    http://" + stack.config().hostPort("ingest.http") + "  (API docs: /docs, OpenAPI: /openapi.json)");
            say("feed-service  http://" + stack.config().hostPort("feed.http") + "  (API docs: /docs, OpenAPI: /openapi.json)");
            say("producer token (./pinfeed token prints it again): " + stack.devToken());
            say("try: curl -H 'Authorization: Bearer " + stack.devToken() + "' -H 'Content-Type: application/json' "
                    + "-d '{\"username\":\"ana\"}' http://" + stack.config().hostPort("ingest.http") + "/v1/users");
            boolean healthy = problems.isEmpty();
            if (healthy) {
                say("all healthy. A server or app that dies is started again. Ctrl-C (or ./pinfeed stop) stops everything.");
            } else {
                // Keep running: what works stays usable, and the logs say why the rest does not.
                problems.forEach(p -> say("NOT HEALTHY: " + p));
                say("running, but not all healthy (./pinfeed status, ./pinfeed logs NAME). Ctrl-C (or ./pinfeed stop) stops everything.");
            }
            long started = System.nanoTime();
            long nextHealthLook = started + HEALTH_LOOK_INTERVAL.toNanos();
            while (!stopped.await(WATCH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS)) {
                try {
                    watchdog.check();
                    // A process sick at the end of the start (most often a store slow under the demo's burst) usually
                    // recovers by itself: say so once it has, so the last word on the screen is true.
                    if (!healthy && System.nanoTime() >= nextHealthLook) {
                        healthy = stack.status(true).stream().noneMatch(LocalStack.Row::failing);
                        nextHealthLook = System.nanoTime() + HEALTH_LOOK_INTERVAL.toNanos();
                        if (healthy) {
                            say(String.format(Locale.ROOT, "all healthy now (%.0f s later). Ctrl-C (or ./pinfeed stop) stops everything.",
                                    (System.nanoTime() - started) / 1e9));
                        }
                    }
                } catch (RuntimeException e) { // e.g. an unreadable pid file: the next look tries again, the stack keeps running
                    say("watchdog: " + Cli.firstLine(e));
                }
            }
            return Cli.OK;
        }

        /** Waits (bounded) until every app is ready; one line per app that is not, naming its failing dependencies. */
        private List<String> awaitReady(LocalStack stack) throws InterruptedException {
            long deadline = System.nanoTime() + readyTimeout.toNanos();
            while (true) {
                // Apps that failed to start were reported by startApps: wait only for those that run.
                List<LocalStack.Row> notReady = stack.status(true).stream()
                        .filter(r -> !r.server() && r.failing() && !r.state().equals(LocalStack.Row.DOWN)).toList();
                if (notReady.isEmpty()) return List.of();
                if (System.nanoTime() > deadline) {
                    return notReady.stream().map(r -> r.name() + " is " + r.state() + ": " + r.detail()).toList();
                }
                TimeUnit.MILLISECONDS.sleep(500);
            }
        }
    }

    @Command(name = "up", mixinStandardHelpOptions = true, description = "Starts the servers detached (no apps) and provisions them.")
    static final class Up extends Sub {
        @Option(names = "--fresh", description = "Wipe all local data first.") boolean fresh;

        @Override
        public Integer call() throws Exception {
            LocalStack stack = stack();
            if (fresh) wipe(stack, new Supervisor(stack.layout()), this::say);
            stack.start();
            out().print(StatusReport.table(stack.status(false), stack));
            return Cli.OK;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stops the apps and servers (and a running ./pinfeed dev), from any shell.")
    static final class Stop extends Sub {
        @Override
        public Integer call() throws Exception {
            new Supervisor(stack().layout()).stopOther();
            stack().stop();
            return Cli.OK;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = {"Shows every server and app: endpoint, state (up, sick, down), pid, RSS, why it is not up.",
                    "Exits 1 when anything that should run is down or not ready (apps should run while ./pinfeed dev runs)."})
    static final class Status extends Sub {
        @Option(names = "--servers", description = "Only the servers decide the exit code (is the test stack up?).") boolean serversOnly;
        @Option(names = "--json", description = "Print the rows as JSON: name, role, endpoint, state, pid, rssMb, detail, expected.") boolean json;

        @Override
        public Integer call() {
            LocalStack stack = stack();
            boolean devRuns = new Supervisor(stack.layout()).other().isPresent();
            List<LocalStack.Row> rows = stack.status(devRuns);
            List<String> failing = rows.stream().filter(LocalStack.Row::failing).filter(r -> r.server() || !serversOnly)
                    .map(LocalStack.Row::name).toList();
            if (json) {
                out().print(StatusReport.json(rows));
            } else {
                out().print(StatusReport.table(rows, stack));
                if (!failing.isEmpty()) out().println("not healthy: " + String.join(", ", failing));
            }
            return failing.isEmpty() ? Cli.OK : Cli.FAILED;
        }
    }

    @Command(name = "token", mixinStandardHelpOptions = true, description = {
            "Prints a dev token while ./pinfeed dev runs: the producer token (ingest-api), or with --user a reader token",
            "of that user (his own home feed, likes and follows on feed-service), or with --service a service token with",
            "the read scope (any user's, without a reader's side effects). Reader and service tokens last 24 hours."})
    static final class Token extends Sub {
        @Option(names = "--user", paramLabel = "USERNAME", description = "a reader token of this user") String user;
        @Option(names = "--service", paramLabel = "NAME", description = "a service token with the read scope") String service;
        @Option(names = "--demo-readers", paramLabel = "N", description = {"N distinct random users of the demo dataset, one",
                "'USER_ID TOKEN' line each (reader tokens): the readers of ./pinfeed bench reads"}) Integer demoReaders;
        @Option(names = "--seed", description = "the random seed of --demo-readers (default: ${DEFAULT-VALUE})", defaultValue = "1")
        long seed;

        @Override
        public Integer call() {
            int chosen = (user != null ? 1 : 0) + (service != null ? 1 : 0) + (demoReaders != null ? 1 : 0);
            if (chosen > 1) throw new IllegalArgumentException("--user, --service and --demo-readers exclude each other");
            String app = user != null || demoReaders != null ? "feed-service" : service != null ? null : "ingest-api";
            if (app != null && !stack().isRunning(app)) {
                throw new IllegalStateException(app + " is not running: start the stack with ./pinfeed dev");
            }
            if (demoReaders != null) {
                for (String username : DemoPlan.randomUsernames(demoReaders, seed)) {
                    long id = stack().userId(username);
                    out().println(id + " " + stack().readerToken(id));
                }
                return Cli.OK;
            }
            out().println(user != null ? stack().readerToken(user) : service != null ? stack().serviceToken(service) : stack().devToken());
            return Cli.OK;
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = "Starts one server or app and waits until it is up (apps: ready); fails naming why when it does not come up.")
    static final class Start extends Sub {
        @Parameters(arity = "0..*", paramLabel = "SERVER") List<String> server;

        @Override
        public Integer call() {
            stack().startServer(serverArg(server));
            return Cli.OK;
        }
    }

    @Command(name = "restart", mixinStandardHelpOptions = true, description = "Stops one server or app (SIGTERM, then kill after its grace) and starts it again.")
    static final class Restart extends Sub {
        @Parameters(arity = "0..*", paramLabel = "SERVER") List<String> server;

        @Override
        public Integer call() {
            stack().restart(serverArg(server));
            return Cli.OK;
        }
    }

    @Command(name = "kill", mixinStandardHelpOptions = true, description = "kill -9 one server or app (crash tests); ./pinfeed start brings it back.")
    static final class Kill extends Sub {
        @Parameters(arity = "0..*", paramLabel = "SERVER") List<String> server;

        @Override
        public Integer call() {
            stack().kill(serverArg(server));
            return Cli.OK;
        }
    }

    @Command(name = "logs", mixinStandardHelpOptions = true, description = "Prints the end of a server's or app's log files (.pinfeed/logs); -f follows them.")
    static final class Logs extends Sub {
        @Parameters(arity = "0..*", paramLabel = "SERVICE") List<String> server;
        @Option(names = {"-f", "--follow"}, description = "Keep printing what is appended (Ctrl-C ends).") boolean follow;
        @Option(names = {"-n", "--lines"}, description = "Lines from the end of each file (default: ${DEFAULT-VALUE}).", defaultValue = "50") int lines;

        @Override
        public Integer call() throws Exception {
            String name = serverArg(server);
            List<Path> files = stack().logFiles(name);
            if (files.isEmpty()) throw new IllegalStateException("no logs of " + name + " yet in " + stack().layout().home().resolve("logs"));
            List<String> cmd = new ArrayList<>(List.of("tail", "-n", String.valueOf(lines)));
            if (follow) cmd.add("-F");
            files.forEach(f -> cmd.add(f.toString()));
            return new ProcessBuilder(cmd).inheritIO().start().waitFor();
        }
    }

    @Command(name = "kafka", mixinStandardHelpOptions = true,
            description = {"Runs one of Kafka's own tools with the stack's bootstrap server filled in (unless given).",
                    "Tools: consumer-groups, topics, get-offsets, console-consumer, console-producer.",
                    "e.g. ./pinfeed kafka consumer-groups --describe --group GROUP; ./pinfeed kafka topics --list"})
    static final class Kafka extends Sub {
        @Parameters(index = "0", paramLabel = "TOOL", arity = "0..1") String tool;
        @Parameters(index = "1..*", paramLabel = "ARGS") List<String> args = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            if (tool == null) throw Cli.usage(spec, "kafka takes a tool: " + String.join(", ", KafkaTools.MAIN_CLASSES.keySet()));
            if (!KafkaTools.MAIN_CLASSES.containsKey(tool)) throw Cli.unknown("kafka tool", tool, KafkaTools.MAIN_CLASSES.keySet());
            LocalStack stack = stack();
            out().flush();
            return new ProcessBuilder(KafkaTools.command(stack.layout(), tool, args, stack.kafkaInternalBootstrap()))
                    .inheritIO().start().waitFor();
        }
    }

    private static void wipe(LocalStack stack, Supervisor supervisor, java.util.function.Consumer<String> say) throws Exception {
        supervisor.stopOther();
        stack.stop();
        stack.wipe();
        say.accept("--fresh: data wiped");
    }

    /** The pid file of a running {@code ./pinfeed dev}, so {@code ./pinfeed stop} can ask it to stop and status knows apps should run. */
    static final class Supervisor {
        private final ManagedProcess process;

        Supervisor(StackLayout layout) {
            this.process = new ManagedProcess("supervisor", layout);
        }

        Optional<ProcessHandle> other() {
            return process.running().filter(h -> h.pid() != ProcessHandle.current().pid());
        }

        void claim() {
            process.record(ProcessHandle.current());
        }

        void clear() {
            process.clear();
        }

        /** Asks a running dev supervisor to stop (it stops its servers) and waits for it. */
        void stopOther() {
            if (other().isPresent()) process.stop(Duration.ofSeconds(90));
        }
    }
}
