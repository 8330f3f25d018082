package dev.pinfeed.architecturetests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * pinfeed's layering as executable rules, over every module's compiled classes (modeled on Apache
 * Flink's architecture tests). A module is a directory with a pom.xml and compiled classes; its
 * package stem is its path with '/' as '.' and '-' dropped ({@code infra/stack-testkit} →
 * {@code dev.pinfeed.infra.stacktestkit}).
 */
class ArchitectureTest {

    /** Client libraries of the stores and of Kafka: adapters use them, core logic never. */
    static final String[] CLIENT_LIBRARIES = {"org.apache.kafka..", "redis.clients..", "java.sql..", "javax.sql..",
            "org.apache.hadoop..", "org.apache.curator..", "org.apache.zookeeper..", "com.zaxxer.hikari..", "com.mysql..",
            "org.eclipse.jetty.."};

    /**
     * The core packages: domain logic over ports, free of client libraries. Adapters (.redis, .mysql,
     * .hbase, .kafka, ...) and composition roots (mains, servers, wiring) live elsewhere.
     */
    static final String[] CORE_PACKAGES = {"dev.pinfeed.followergraph", "dev.pinfeed.followergraph.sharded", "dev.pinfeed.followergraph.audit",
            "dev.pinfeed.ingestapi.core", "dev.pinfeed.idallocator", "dev.pinfeed.feedstore", "dev.pinfeed.contentgenerator..",
            "dev.pinfeed.canonicalstore", "dev.pinfeed.canonicalstore.reads", "dev.pinfeed.config", "dev.pinfeed.fanoutstreams", "dev.pinfeed.fanoutstreams.related", "dev.pinfeed.feedworker",
            "dev.pinfeed.feedstore.scoring", "dev.pinfeed.feedservice.homefeed", "dev.pinfeed.console.pipeline"};

    /**
     * What a module offers other modules besides its root package (its API): sub-packages that are
     * part of its public surface. Everything else below a module's root is its own business.
     */
    static final Map<String, Set<String>> EXPORTED = Map.ofEntries(
            Map.entry("dev.pinfeed.config", Set.of("dev.pinfeed.config.zookeeper")),
            // The audit: the graph against its events (./pinfeed verify graph), the oracle and the repairs.
            Map.entry("dev.pinfeed.followergraph", Set.of("dev.pinfeed.followergraph.redis", "dev.pinfeed.followergraph.audit")),
            Map.entry("dev.pinfeed.mysqlshards", Set.of("dev.pinfeed.mysqlshards.query")),
            Map.entry("dev.pinfeed.feedstore", Set.of("dev.pinfeed.feedstore.hbase", "dev.pinfeed.feedstore.redis", "dev.pinfeed.feedstore.scoring")),
            Map.entry("dev.pinfeed.canonicalstore", Set.of("dev.pinfeed.canonicalstore.reads", "dev.pinfeed.canonicalstore.mysql",
                    "dev.pinfeed.canonicalstore.redis")),
            Map.entry("dev.pinfeed.idallocator", Set.of("dev.pinfeed.idallocator.mysql")),
            // The materializer's rules as a reference model: what ./pinfeed verify canonical compares the shards with.
            Map.entry("dev.pinfeed.materializer", Set.of("dev.pinfeed.materializer.oracle")),
            // Adapters and the record handler: what a composition root (its main, the load harness) wires.
            Map.entry("dev.pinfeed.feedworker", Set.of("dev.pinfeed.feedworker.redis", "dev.pinfeed.feedworker.canonical",
                    "dev.pinfeed.feedworker.process")),
            // The Streams app: what a composition root (its main, the load harness) starts.
            // The related-pins application's settings (dev.pinfeed.fanoutstreams.related) go with it.
            Map.entry("dev.pinfeed.fanoutstreams", Set.of("dev.pinfeed.fanoutstreams.kafka", "dev.pinfeed.fanoutstreams.related")),
            Map.entry("dev.pinfeed.ingestapi", Set.of("dev.pinfeed.ingestapi.client", "dev.pinfeed.ingestapi.core",
                    "dev.pinfeed.ingestapi.http")));

    /** Classes other modules may use although they sit in an internal package, each with the reason. */
    static final Map<String, String> EXPORTED_CLASSES = Map.of(
            "dev.pinfeed.followergraph.sharded.GraphKeys",
            "the graph's key scheme, for tools that touch the keys directly (the load harness's raw Redis baseline, verify graph's report)",
            "dev.pinfeed.followergraph.sharded.GraphKeyspace",
            "what a live graph store hands its audit (dev.pinfeed.followergraph.audit): ./pinfeed verify graph passes the Redis store's on",
            "dev.pinfeed.feedservice.homefeed.HomeFeedSettings",
            "FeedServiceServer.homeFeed takes them: a composition root other than the main (the load harness) passes them",
            "dev.pinfeed.feedservice.homefeed.FeedCursor",
            "the cursor of a known feed position, so the load harness reads a next page without a first page",
            "dev.pinfeed.feedservice.homefeed.HomeFeed",
            "FeedServiceServer.homeFeed returns it: the load harness times the service's read without HTTP beside the HTTP read");

    private static final Path ROOT = Path.of(System.getProperty("pinfeed.root", "..")).toAbsolutePath().normalize();

    /** Module stem → that module's production classes. */
    private static final Map<String, List<JavaClass>> PRODUCTION = new LinkedHashMap<>();
    private static JavaClasses allProduction;
    private static JavaClasses allTests;
    private static final Map<String, String> TEST_CLASS_MODULE = new LinkedHashMap<>();

    @BeforeAll
    static void importEveryModule() throws IOException {
        List<Path> mainDirs = new ArrayList<>();
        List<Path> testDirs = new ArrayList<>();
        Map<Path, String> stems = new LinkedHashMap<>();
        for (Path module : modules()) {
            Path classes = module.resolve("target/classes");
            Path tests = module.resolve("target/test-classes");
            if (Files.isDirectory(classes)) {
                mainDirs.add(classes);
                stems.put(classes, stem(module));
                PRODUCTION.put(stem(module), new ArrayList<>());
            }
            if (Files.isDirectory(tests)) testDirs.add(tests);
        }
        allProduction = new ClassFileImporter().importPaths(mainDirs);
        for (JavaClass c : allProduction) {
            Path file = Path.of(c.getSource().orElseThrow().getUri());
            stems.forEach((dir, stem) -> {
                if (file.startsWith(dir)) PRODUCTION.get(stem).add(c);
            });
        }
        assertThat(PRODUCTION).as("compiled modules under %s (build them first: mvn verify builds this module last)", ROOT)
                .containsKeys("dev.pinfeed.config", "dev.pinfeed.followergraph", "dev.pinfeed.feedservice");
        allTests = new ClassFileImporter().importPaths(testDirs);
    }

    /** Every directory below the root holding a pom.xml of packaging jar with sources. */
    static List<Path> modules() throws IOException {
        try (Stream<Path> poms = Files.walk(ROOT, 3)) {
            return poms.filter(p -> p.getFileName().toString().equals("pom.xml"))
                    .map(Path::getParent)
                    .filter(d -> !d.equals(ROOT) && Files.isDirectory(d.resolve("src")))
                    .filter(d -> !d.toString().contains("/target/") && !d.getFileName().toString().equals("architecture-tests"))
                    .sorted().toList();
        }
    }

    static String stem(Path module) {
        return "dev.pinfeed." + ROOT.relativize(module).toString().replace('/', '.').replace("-", "");
    }

    @Test
    void corePackagesImportNoClientLibrary() {
        ArchRule rule = noClasses().that().resideInAnyPackage(CORE_PACKAGES)
                .should().dependOnClassesThat().resideInAnyPackage(CLIENT_LIBRARIES)
                .because("core logic talks to ports; adapters at the edge hold the clients (house rules)");
        rule.check(allProduction);
    }

    @Test
    void everyModulesPackagesCarryItsName() {
        List<String> wrong = new ArrayList<>();
        PRODUCTION.forEach((stem, classes) -> {
            for (JavaClass c : classes) {
                boolean avro = stem.equals("dev.pinfeed.eventsschema") && c.getPackageName().equals("dev.pinfeed.events");
                if (!avro && !(c.getPackageName() + ".").startsWith(stem + ".")) wrong.add(c.getName() + " (module " + stem + ")");
            }
        });
        assertThat(wrong).as("classes outside their module's package stem (directory = artifact = package stem); "
                + "events-schema's generated Avro classes keep the wire namespace dev.pinfeed.events").isEmpty();
    }

    @Test
    void noModuleReachesAnotherModulesInternals() {
        List<String> violations = new ArrayList<>();
        for (JavaClass c : allProduction) {
            String own = moduleOf(c.getPackageName()).orElse("");
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass();
                if (!target.getPackageName().startsWith("dev.pinfeed.")) continue;
                Optional<String> targetModule = moduleOf(target.getPackageName());
                if (targetModule.isEmpty() || targetModule.get().equals(own)) continue;
                if (!isPublicSurface(targetModule.get(), target)) {
                    violations.add(c.getName() + " -> " + target.getName());
                }
            }
        }
        assertThat(new TreeSet<>(violations)).as("uses of another module's internal packages (see EXPORTED)").isEmpty();
    }

    private static boolean isPublicSurface(String module, JavaClass target) {
        String pkg = target.getPackageName();
        if (pkg.equals(module)) return true;
        if (EXPORTED.getOrDefault(module, Set.of()).contains(pkg)) return true;
        String outer = target.getName().contains("$") ? target.getName().substring(0, target.getName().indexOf('$')) : target.getName();
        return EXPORTED_CLASSES.containsKey(outer);
    }

    /** The module stem a package belongs to: the longest stem it starts with. */
    static Optional<String> moduleOf(String pkg) {
        return PRODUCTION.keySet().stream().filter(stem -> (pkg + ".").startsWith(stem + "."))
                .max((a, b) -> Integer.compare(a.length(), b.length()));
    }

    @Test
    void testDoublesStayOutOfProductionCode() {
        ArchRule rule = noClasses().should().haveSimpleNameStartingWith("InMemory")
                .orShould().haveSimpleNameStartingWith("Fake")
                .orShould().haveSimpleNameStartingWith("Recording")
                .orShould().haveSimpleNameEndingWith("Model")
                .because("test doubles live in test sources (shared through test-jars), so no service can wire them by mistake");
        rule.check(allProduction);
    }

    private static final Pattern TEST_METHOD = Pattern.compile("org\\.junit\\.jupiter\\.api\\.(Test|ParameterizedTest|RepeatedTest|TestFactory)"
            + "|net\\.jqwik\\.api\\.(Property|Example)");

    @Test
    void everyTestClassIsATestOrAnItOrAbstract() {
        List<String> misnamed = new ArrayList<>();
        for (JavaClass c : allTests) {
            if (!declaresTests(c) || c.getModifiers().contains(JavaModifier.ABSTRACT)) continue;
            JavaClass top = c;
            while (top.getEnclosingClass().isPresent()) top = top.getEnclosingClass().get();
            String name = top.getSimpleName();
            if (!name.endsWith("Test") && !name.endsWith("IT")) misnamed.add(c.getName());
        }
        assertThat(misnamed).as("classes with tests that surefire (*Test) and failsafe (*IT) would never run").isEmpty();
    }

    private static boolean declaresTests(JavaClass c) {
        return c.getMethods().stream().anyMatch(m -> m.getAnnotations().stream()
                .anyMatch(a -> TEST_METHOD.matcher(a.getRawType().getName()).matches()));
    }
}
