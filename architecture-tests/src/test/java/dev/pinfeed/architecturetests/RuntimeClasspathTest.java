package dev.pinfeed.architecturetests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Every app and command runs from {@code target/classes} plus the {@code target/classpath.txt} its pom writes
 * (runtime scope), not from Maven's test classpath. A dependency narrowed to test scope in the pom (a direct
 * declaration wins over the transitive compile one) leaves a class our code needs off that classpath: the tests
 * pass, and the command fails with NoClassDefFoundError on the operator's machine. jdeps walks every pinfeed
 * class reachable from the module's classes over exactly that classpath and names what is missing.
 */
class RuntimeClasspathTest {
    private static final Path ROOT = Path.of(System.getProperty("pinfeed.root", "..")).toAbsolutePath().normalize();
    private static final String CLASSPATH_OUTPUT = "<outputFile>${project.build.directory}/classpath.txt</outputFile>";
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    /** jdeps --missing-deps: "   dev.pinfeed.x.Y   -> some.missing.Class   not found". */
    private static final Pattern MISSING = Pattern.compile("^\\s*(dev\\.pinfeed\\.\\S+)\\s+->\\s+(\\S+)\\s+not found\\s*$");

    @Test
    void every_runnable_module_finds_every_class_it_references_on_its_runtime_classpath() throws IOException {
        List<String> runnable = runnableModules();
        assertThat(runnable).as("modules whose pom writes target/classpath.txt").contains("operations", "graph-processor", "feed-service", "infra/stack");
        List<String> problems = new ArrayList<>();
        for (String module : runnable) {
            Path dir = ROOT.resolve(module);
            Path classpath = dir.resolve("target/classpath.txt");
            Path classes = dir.resolve("target/classes");
            assertThat(classpath).as("%s is built before architecture-tests (a test dependency of it)", module).exists();
            for (String line : missingDependences(classes, Files.readString(classpath).trim())) {
                problems.add(module + ": " + line);
            }
        }
        assertThat(problems).as("classes referenced by pinfeed code but absent from the runtime classpath").isEmpty();
    }

    @Test
    void a_class_missing_from_the_classpath_is_named() throws IOException {
        // The check itself: operations without the jars of the processors it drives misses their classes.
        Path classes = ROOT.resolve("operations/target/classes");
        assertThat(missingDependences(classes, "")).anyMatch(line -> line.contains("dev.pinfeed.operations."));
    }

    /** The modules (nested ones too, e.g. infra/stack) whose pom writes classpath.txt and that have code of their own. */
    private static List<String> runnableModules() throws IOException {
        List<String> modules = new ArrayList<>();
        collect("", modules);
        return modules;
    }

    private static void collect(String parent, List<String> into) throws IOException {
        Matcher matcher = MODULE.matcher(Files.readString(ROOT.resolve(parent).resolve("pom.xml")));
        while (matcher.find()) {
            String module = parent.isEmpty() ? matcher.group(1).trim() : parent + "/" + matcher.group(1).trim();
            Path pom = ROOT.resolve(module).resolve("pom.xml");
            if (!Files.exists(pom)) continue;
            String text = Files.readString(pom);
            if (text.contains(CLASSPATH_OUTPUT) && Files.isDirectory(ROOT.resolve(module).resolve("src/main/java"))) into.add(module);
            if (text.contains("<modules>")) collect(module, into);
        }
    }

    /** Lines "pinfeed class -> missing class" for every pinfeed class reachable from {@code classes}. */
    private static List<String> missingDependences(Path classes, String classpath) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("this JDK has no jdeps"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> args = new ArrayList<>(List.of("--multi-release", "17", "--missing-deps", "-R", "-include", "dev\\.pinfeed\\..*"));
        if (!classpath.isEmpty()) {
            args.addAll(List.of("--class-path", classpath));
        }
        args.add(classes.toString());
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
        assertThat(exit).as("jdeps %s: %s", args, err).isZero();
        List<String> missing = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            Matcher matcher = MISSING.matcher(line);
            if (matcher.matches()) {
                missing.add(matcher.group(1) + " -> " + matcher.group(2));
            }
        }
        return missing;
    }
}
