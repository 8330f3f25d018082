package dev.pinfeed.infra.stack;

import dev.pinfeed.config.PinfeedConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./pinfeed} stack commands: dev (foreground, Ctrl-C stops all), up (start detached), stop,
 * status, restart/kill/start SERVER, provision. Errors are one line on stderr and a non-zero exit.
 */
public final class StackCli {

    private static final String USAGE = "usage: stack dev|up [--fresh] | stop | status [--servers] | token | start|restart|kill SERVER | provision";

    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("pinfeed: " + e.getMessage());
            System.exit(2);
        } catch (Exception e) {
            System.err.println("pinfeed: " + firstLine(e));
            System.exit(1);
        }
    }

    /** Client exceptions (HBase's especially) carry whole remote stack traces: the user gets the first line. */
    static String firstLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String msg = String.valueOf(root.getMessage() == null ? root : root.getMessage());
        int nl = msg.indexOf('\n');
        return (root.getClass().getSimpleName() + ": " + (nl < 0 ? msg : msg.substring(0, nl))).trim();
    }

    static int run(String[] args) throws Exception {
        if (args.length == 0) throw new IllegalArgumentException(USAGE);
        String command = args[0];
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        boolean fresh = rest.contains("--fresh");
        boolean serversOnly = rest.contains("--servers");
        for (String r : rest) {
            if (r.startsWith("--") && !r.equals("--fresh") && !r.equals("--servers")) {
                throw new IllegalArgumentException("unknown option " + r + "; " + USAGE);
            }
        }
        if (command.equals("provision")) {
            PinfeedConfig config = PinfeedConfig.load();
            System.out.println("provisioning against " + config.source());
            new Provisioner(config, StackLayout.discover().definitions(), StackCli::say).all();
            return 0;
        }
        LocalStack stack = LocalStack.fromEnvironment(StackCli::say);
        Supervisor supervisor = new Supervisor(stack.layout());
        switch (command) {
            case "dev" -> {
                return dev(stack, supervisor, fresh);
            }
            case "up" -> {
                if (fresh) wipe(stack, supervisor);
                stack.start();
                System.out.print(stack.table());
                return 0;
            }
            case "stop" -> {
                supervisor.stopOther();
                stack.stop();
                return 0;
            }
            case "token" -> {
                if (!stack.isRunning("ingest-api")) {
                    throw new IllegalStateException("ingest-api is not running: start the stack with ./pinfeed dev");
                }
                System.out.println(stack.devToken());
                return 0;
            }
            case "status" -> {
                List<String> sick = stack.unhealthy();
                System.out.print(stack.table(sick));
                if (!sick.isEmpty()) System.out.println("not healthy: " + String.join(", ", sick));
                // --servers: only the servers decide the exit code (the test runner's question: is the stack up?).
                List<String> deciding = serversOnly ? stack.serversAmong(sick) : sick;
                return deciding.isEmpty() ? 0 : 1;
            }
            case "start", "restart", "kill" -> {
                if (rest.size() != 1) throw new IllegalArgumentException(command + " takes one server name: " + stack.serverNames());
                switch (command) {
                    case "start" -> stack.startServer(rest.get(0));
                    case "restart" -> stack.restart(rest.get(0));
                    default -> stack.kill(rest.get(0));
                }
                return 0;
            }
            default -> throw new IllegalArgumentException("unknown command '" + command + "'; " + USAGE);
        }
    }

    private static void wipe(LocalStack stack, Supervisor supervisor) throws Exception {
        supervisor.stopOther();
        stack.stop();
        stack.wipe();
        say("--fresh: data wiped");
    }

    /** Foreground: start, print the endpoints, wait for Ctrl-C / SIGTERM / ./pinfeed stop, stop everything. */
    private static int dev(LocalStack stack, Supervisor supervisor, boolean fresh) throws Exception {
        if (supervisor.other().isPresent()) {
            throw new IllegalStateException("./pinfeed dev is already running (pid " + supervisor.other().get().pid() + ")");
        }
        if (fresh) wipe(stack, supervisor);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            System.out.println();
            say("stopping the stack ...");
            stack.stop();
            supervisor.clear();
            stopped.countDown();
        }, "pinfeed-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        supervisor.claim();
        try {
            stack.start();
            stack.startApps();
            stack.loadDemoDataset();
        } catch (Exception e) {
            System.err.println("pinfeed: " + firstLine(e));
            System.exit(1); // the hook stops what did start
        }
        System.out.println();
        System.out.print(stack.table());
        System.out.println();
        say("ingest-api    http://" + stack.config().hostPort("ingest.http") + "  (OpenAPI: /openapi.json)");
        say("feed-service  http://" + stack.config().hostPort("feed.http") + "  (OpenAPI: /openapi.json)");
        say("producer token (./pinfeed token prints it again): " + stack.devToken());
        say("try: curl -H 'Authorization: Bearer " + stack.devToken() + "' -H 'Content-Type: application/json' "
                + "-d '{\"username\":\"ana\"}' http://" + stack.config().hostPort("ingest.http") + "/v1/users");
        say("all healthy. Ctrl-C (or ./pinfeed stop) stops everything.");
        stopped.await();
        return 0;
    }

    static void say(String line) {
        System.out.println("[pinfeed] " + line);
        System.out.flush();
    }

    /** The pid file of a running {@code ./pinfeed dev}, so {@code ./pinfeed stop} can ask it to stop. */
    static final class Supervisor {
        private final Path pidFile;

        Supervisor(StackLayout layout) {
            this.pidFile = layout.runDir().resolve("supervisor.pid");
        }

        Optional<ProcessHandle> other() {
            try {
                long pid = Long.parseLong(Files.readString(pidFile).trim());
                return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(h -> h.pid() != ProcessHandle.current().pid());
            } catch (Exception e) {
                return Optional.empty();
            }
        }

        void claim() throws Exception {
            Files.writeString(pidFile, ProcessHandle.current().pid() + "\n");
        }

        void clear() {
            try {
                Files.deleteIfExists(pidFile);
            } catch (Exception ignored) {
                // stale files are recognised by pid liveness
            }
        }

        /** Asks a running dev supervisor to stop (it stops its servers) and waits for it. */
        void stopOther() throws Exception {
            Optional<ProcessHandle> other = other();
            if (other.isEmpty()) return;
            other.get().destroy();
            other.get().onExit().get(Duration.ofSeconds(90).toSeconds(), TimeUnit.SECONDS);
        }
    }
}
