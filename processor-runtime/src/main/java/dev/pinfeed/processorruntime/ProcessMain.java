package dev.pinfeed.processorruntime;

import dev.pinfeed.config.PinfeedConfig;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.logging.log4j.LogManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The main of every long-running pinfeed process: quiet logging, the configuration, the process's
 * own start-up in named steps, then waiting for SIGTERM / Ctrl-C, on which everything the process
 * opened is closed in reverse order (the consumer loop commits first, the admin endpoint answers
 * until last) and the logs are flushed. A failed start prints one line naming the step and exits 1
 * (2 for a configuration error), without a stack dump on the console.
 */
public final class ProcessMain {

    /** A process's start-up: open things through {@code context} so they are closed at exit. */
    @FunctionalInterface
    public interface Body {
        void start(ProcessContext context) throws Exception;
    }

    /** Processes started in this JVM and not yet stopped: several share one under {@link SharedJvmMain}. */
    private static final AtomicInteger RUNNING = new AtomicInteger();

    private ProcessMain() {}

    public static void run(String processName, Body body) {
        PinfeedConfig config;
        try {
            configureLogging();
            config = PinfeedConfig.load();
        } catch (RuntimeException e) {
            System.err.println(processName + ": configuration: " + e.getMessage());
            System.exit(2);
            return;
        }
        Logger log = LoggerFactory.getLogger(ProcessMain.class);
        ProcessContext context = new ProcessContext(processName, config, Clock.systemUTC());
        CountDownLatch stopped = new CountDownLatch(1);
        RUNNING.incrementAndGet();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            context.close();
            log.info("{} stopped", processName);
            // The last process of the JVM to stop flushes the logs: the others may still be closing and logging.
            if (RUNNING.decrementAndGet() == 0) LogManager.shutdown();
            stopped.countDown();
        }, processName + "-shutdown"));
        try {
            body.start(context);
        } catch (Exception | Error e) {
            String step = context.currentStep();
            log.debug("{}: start failed at {}", processName, step, e);
            System.err.println(processName + ": " + (step.isEmpty() ? "start" : step) + " failed: " + oneLine(e)
                    + (context.logHint().isEmpty() ? "" : " (" + context.logHint() + ")"));
            System.exit(1); // the hook closes what did open
            return;
        }
        context.started();
        log.info("{} started{}", processName, context.summary());
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The process's log4j2 configuration unless one was given, in the format {@link LogFormat#ofProcess()} asks for
     * (an unknown format is an IllegalArgumentException naming the switch); Log4j's own hook would stop logging
     * before ours ends. Call it before the first logger is made.
     */
    public static void configureLogging() {
        LogFormat.ofProcess().select();
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "log4j2-pinfeed.xml");
        }
        System.setProperty("log4j.shutdownHookEnabled", "false");
    }

    /** The innermost message, first line only: client exceptions carry whole remote stack traces. */
    public static String oneLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String msg = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        int nl = msg.indexOf('\n');
        String text = nl < 0 ? msg : msg.substring(0, nl);
        return root == e ? text : e.getMessage() == null ? text : firstLine(e.getMessage()) + (text.equals(firstLine(e.getMessage())) ? "" : ": " + text);
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
