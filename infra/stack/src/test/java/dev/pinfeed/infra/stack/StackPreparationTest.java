package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.Sha256;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The preparation steps run concurrently and repeatedly (the apps prepare in parallel; two shells may
 * start one stack): every caller succeeds and all see one consistent token. No servers, no external tools.
 */
class StackPreparationTest {

    private static final int THREADS = 16;
    private static final int ROUNDS = 5;

    @TempDir Path tmp;

    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    /** Runs {@code task} on every thread at once (a barrier releases them together); returns each thread's result. */
    private <T> List<T> together(Callable<T> task) throws Exception {
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            futures.add(pool.submit(() -> {
                start.await();
                return task.call();
            }));
        }
        List<T> results = new ArrayList<>();
        for (Future<T> f : futures) results.add(f.get()); // rethrows any thread's failure
        return results;
    }

    @Test
    void everyFileStepOfEveryServerAndAppRunsConcurrentlyOnAnEmptyRunDirectory() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            StackLayout layout = new StackLayout(tmp, tmp.resolve("round-" + round));
            LocalStack stack = new LocalStack(layout, PinfeedConfig.bundledLocal(), line -> {});
            List<ServerSpec> specs = new ArrayList<>(stack.specs());
            Random random = new Random(round);

            List<String> tokens = together(() -> {
                List<ServerSpec> order = new ArrayList<>(specs);
                synchronized (random) {
                    Collections.shuffle(order, random);
                }
                for (ServerSpec spec : order) spec.writeFiles();
                return stack.devToken();
            });

            assertThat(Set.copyOf(tokens)).hasSize(1);
            String token = tokens.get(0);
            assertThat(token).startsWith("pf_dev_").hasSizeGreaterThan(40);
            Path tokenFile = DevToken.tokenFile(layout);
            assertThat(Files.readString(tokenFile)).isEqualTo(token + "\n");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile))).isEqualTo("rw-------");
            assertThat(Files.readString(DevToken.ingestTokensFile(layout))).contains("token.dev.sha256=" + Sha256.hex(token) + "\n");
            assertThat(Files.readString(layout.dataPath("hbase-primary").resolve("conf/hbase-site.xml"))).endsWith("</configuration>\n");
            assertThat(Files.readString(layout.dataPath("kafka").resolve("server.properties"))).contains("log.retention.hours=168");
            assertThat(Files.readString(Log4jConfig.SERVERS.file(layout))).endsWith("</Configuration>\n");
            assertThat(Files.readString(Log4jConfig.APPS.file(layout))).contains("<JsonTemplateLayout").endsWith("</Configuration>\n");
            assertThat(tempLeftovers(layout.home())).isEmpty();
            // Again, over what the first pass wrote: same token, nothing rewritten to something else.
            assertThat(Set.copyOf(together(() -> {
                for (ServerSpec spec : specs) spec.writeFiles();
                return stack.devToken();
            }))).containsExactly(token);
        }
    }

    @Test
    void theDataDirectoryIsInitializedOnceByConcurrentCallers() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            StackLayout layout = new StackLayout(tmp, tmp.resolve("round-" + round));
            LocalStack stack = new LocalStack(layout, PinfeedConfig.bundledLocal(), line -> {});
            AtomicInteger installs = new AtomicInteger();
            Set<Thread> installers = ConcurrentHashMap.newKeySet();
            MariaDbServerSpec spec = new MariaDbServerSpec(layout, "mysql002-master", HostPort.parse("127.0.0.1:13316"), 3, false,
                    (dataDir, tmpDir) -> {
                        installs.incrementAndGet();
                        installers.add(Thread.currentThread());
                        Files.createDirectories(dataDir.resolve("mysql"));
                        Files.writeString(dataDir.resolve("mysql").resolve("user.frm"), "system tables");
                        return "installed\n";
                    });

            together(() -> {
                stack.prepare(spec);
                return null;
            });

            assertThat(installs).hasValue(1);
            assertThat(spec.initialized()).isTrue();
            assertThat(layout.dataPath("mysql002-master").resolve("mysql/user.frm")).hasContent("system tables");
            assertThat(layout.home().resolve("data/mysql002-master.installing")).doesNotExist();
        }
    }

    @Test
    void aFailedInitializationNamesTheStepAndWhatToDoAndLeavesNoHalfDirectory() throws Exception {
        StackLayout layout = new StackLayout(tmp, tmp.resolve(".pinfeed"));
        LocalStack stack = new LocalStack(layout, PinfeedConfig.bundledLocal(), line -> {});
        AtomicInteger attempts = new AtomicInteger();
        MariaDbServerSpec spec = new MariaDbServerSpec(layout, "mysql002-master", HostPort.parse("127.0.0.1:13316"), 3, false,
                (dataDir, tmpDir) -> {
                    Files.createDirectories(dataDir.resolve("mysql")); // half-way, then the installer dies
                    if (attempts.incrementAndGet() == 1) throw new IllegalStateException("mariadb-install-db failed (exit 1): disk full");
                    return "";
                });

        assertThatThrownBy(() -> stack.prepare(spec)).hasMessage("mysql002-master: initializing the data directory failed: "
                + "mariadb-install-db failed (exit 1): disk full — run ./pinfeed dev --fresh (wipes local data), "
                + "or see .pinfeed/logs/mysql002-master.err (./pinfeed logs mysql002-master)");
        assertThat(spec.initialized()).isFalse();

        stack.prepare(spec); // the next start installs again instead of trusting a half-initialized directory
        assertThat(attempts).hasValue(2);
        assertThat(spec.initialized()).isTrue();
    }

    private static List<Path> tempLeftovers(Path home) throws Exception {
        try (Stream<Path> files = Files.walk(home)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".tmp") && Files.isRegularFile(p)).toList();
        }
    }
}
