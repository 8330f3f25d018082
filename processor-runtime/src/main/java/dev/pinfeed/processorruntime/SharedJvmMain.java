package dev.pinfeed.processorruntime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Several pinfeed processes in one JVM, each argument the main class of one ({@link ProcessMain} mains), each started on
 * a thread named after it. {@code ./pinfeed dev} runs the stream processors this way: every JVM costs ~150 MB before its
 * heap (metaspace, code, the collector's structures, thread stacks), and the processors load mostly the same classes.
 * Each process keeps its own configuration keys, admin endpoint, consumers and shutdown hook; a process whose start
 * fails exits the JVM, as it would its own (the dev watchdog then starts the whole group again).
 */
public final class SharedJvmMain {

    private SharedJvmMain() {}

    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: SharedJvmMain MAIN_CLASS... (each a pinfeed process's main)");
            System.exit(2);
            return;
        }
        List<Thread> threads;
        try {
            threads = threads(List.of(args));
            // Logging set up once, before the processes start it from several threads at once (SLF4J would drop what
            // they log meanwhile).
            ProcessMain.configureLogging();
            LoggerFactory.getLogger(SharedJvmMain.class).debug("starting {}", String.join(", ", args));
        } catch (IllegalArgumentException e) {
            System.err.println("SharedJvmMain: " + e.getMessage());
            System.exit(2);
            return;
        }
        threads.forEach(Thread::start);
    }

    /**
     * One unstarted thread per main class, named {@code <SimpleName>-main}, that runs its {@code main(String[])}; a main
     * that throws exits the JVM with 1. Every class is resolved before any thread exists, so a wrong name starts nothing.
     *
     * @throws IllegalArgumentException naming a class that is not there or has no {@code public static void main(String[])}
     */
    static List<Thread> threads(List<String> mainClasses) {
        List<MethodHandle> mains = new ArrayList<>();
        for (String name : mainClasses) {
            try {
                Class<?> type = Class.forName(name, false, SharedJvmMain.class.getClassLoader());
                mains.add(MethodHandles.publicLookup().findStatic(type, "main", MethodType.methodType(void.class, String[].class)));
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException("no class " + name + " on the classpath");
            } catch (NoSuchMethodException | IllegalAccessException e) {
                throw new IllegalArgumentException(name + " has no public static void main(String[])");
            }
        }
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < mains.size(); i++) {
            MethodHandle main = mains.get(i);
            String name = mainClasses.get(i);
            threads.add(new Thread(() -> {
                try {
                    main.invokeExact(new String[0]);
                } catch (Throwable e) {
                    System.err.println(name + " failed: " + ProcessMain.oneLine(e));
                    System.exit(1);
                }
            }, name.substring(name.lastIndexOf('.') + 1) + "-main"));
        }
        return threads;
    }
}
