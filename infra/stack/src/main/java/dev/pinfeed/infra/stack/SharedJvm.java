package dev.pinfeed.infra.stack;

import dev.pinfeed.config.PinfeedConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Apps that run in one JVM ({@value #KEY}, a comma-separated list of app names; none by default): under
 * {@code ./pinfeed dev} the four stream processors and the console. Every JVM costs ~150 MB before its heap (metaspace, code, the
 * collector's structures, thread stacks: docs/benchmarks.md "dev stack memory"), and they load mostly the same classes.
 * Each keeps its name, admin endpoint, health and configuration keys; they share a pid (pid file, log and out file
 * {@value #NAME}.*), so stopping, killing or restarting one of them does it to all, and a hold on one holds them all.
 * The JVM's heap, young generation and collector are {@code shared-jvm.heap} / {@code .young-gen} / {@code .collector}.
 * It runs processor-runtime's {@code SharedJvmMain} over the members' distributions: their libraries, one copy of
 * each jar, and their launchers' main classes.
 */
final class SharedJvm {

    static final String KEY = "stack.apps.shared-jvm";
    /** Its process name: pid file, logs and its own configuration keys. */
    static final String NAME = "shared-jvm";
    static final String MAIN = "dev.pinfeed.processorruntime.SharedJvmMain";

    private final StackLayout layout;
    private final List<String> memory;
    private final JvmCollector collector;
    private final List<AppSpec> members = new ArrayList<>();

    private SharedJvm(StackLayout layout, PinfeedConfig config) {
        this.layout = layout;
        this.memory = AppSpec.memory(config, NAME);
        this.collector = JvmCollector.ofApp(config, NAME);
    }

    /**
     * The apps {@value #KEY} names, each moved into the one JVM; empty when it names none.
     *
     * @throws IllegalArgumentException naming the key when it names an app that is not one of {@code apps}, or only one
     */
    static List<AppSpec> share(StackLayout layout, PinfeedConfig config, List<AppSpec> apps) {
        List<String> names = Arrays.stream(config.get(KEY, "").split(",")).map(String::strip).filter(n -> !n.isEmpty()).distinct().toList();
        if (names.isEmpty()) return List.of();
        Map<String, AppSpec> byName = apps.stream().collect(Collectors.toMap(AppSpec::name, a -> a, (a, b) -> a, LinkedHashMap::new));
        for (String n : names) {
            if (!byName.containsKey(n)) throw new IllegalArgumentException(KEY + " names no app '" + n + "' (apps: " + String.join(", ", byName.keySet()) + ")");
        }
        if (names.size() < 2) throw new IllegalArgumentException(KEY + " must name two or more apps: '" + config.get(KEY, "") + "'");
        SharedJvm jvm = new SharedJvm(layout, config);
        for (String n : names) jvm.members.add(byName.get(n).in(jvm));
        return List.copyOf(jvm.members);
    }

    Path logFile() {
        return layout.logFile(NAME + ".log");
    }

    /**
     * The java command: the first member's distribution options (conf/jvm.options, the flags every app needs), then
     * the stack's in an argument file ({@code .pinfeed/run/shared-jvm.jvm-options}: heap, collector, log, the members'
     * system properties, the classpath), then {@value #MAIN} and the members' main classes.
     */
    List<String> command() {
        Map<String, String> properties = new LinkedHashMap<>();
        for (AppSpec app : members) {
            app.properties().forEach((k, v) -> {
                String before = properties.putIfAbsent(k, v);
                if (before != null && !before.equals(v)) {
                    throw new IllegalStateException(app.name() + " and another app of " + KEY + " set " + k + " differently: they cannot share a JVM");
                }
            });
        }
        Path optionsFile = AppSpec.writeJvmOptions(layout, NAME, memory, collector, properties, List.of("-cp", classpath()));
        List<String> command = new ArrayList<>(List.of(JavaCommand.java(),
                "@" + members.get(0).distribution().resolve("conf").resolve("jvm.options"), "@" + optionsFile, MAIN));
        members.forEach(a -> command.add(a.mainClass()));
        return command;
    }

    /** The members' libraries, one copy of each jar (by file name: one build, so the same jar), in member order. */
    private String classpath() {
        Map<String, Path> jars = new LinkedHashMap<>();
        for (AppSpec app : members) {
            Path lib = app.distribution().resolve("lib");
            try (Stream<Path> files = Files.list(lib)) {
                files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted()
                        .forEach(f -> jars.putIfAbsent(f.getFileName().toString(), f));
            } catch (IOException e) {
                throw new UncheckedIOException("listing " + lib + " (./pinfeed builds it)", e);
            }
        }
        return jars.values().stream().map(Path::toString).collect(Collectors.joining(":"));
    }
}
