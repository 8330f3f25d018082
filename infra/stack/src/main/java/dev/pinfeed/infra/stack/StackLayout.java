package dev.pinfeed.infra.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the stack keeps things: the project root (scripts, definitions, built classpaths) and the
 * git-ignored {@code .pinfeed/} directory holding server data, logs and pid files.
 */
public record StackLayout(Path root, Path home) {

    /** Finds the project root from {@code -Dpinfeed.root}, {@code PINFEED_ROOT}, or the working directory upwards. */
    public static StackLayout discover() {
        String explicit = System.getProperty("pinfeed.root", System.getenv("PINFEED_ROOT"));
        Path root = explicit != null && !explicit.isBlank() ? Path.of(explicit) : searchUpwards(Path.of("").toAbsolutePath());
        root = root.toAbsolutePath().normalize();
        String home = System.getenv("PINFEED_HOME");
        return new StackLayout(root, home == null || home.isBlank() ? root.resolve(".pinfeed") : Path.of(home).toAbsolutePath());
    }

    private static Path searchUpwards(Path from) {
        for (Path p = from; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("pinfeed")) && Files.isDirectory(p.resolve("infra"))) return p;
        }
        throw new IllegalStateException("cannot find the pinfeed project root above " + from + " (set PINFEED_ROOT)");
    }

    /** A server's data directory, created if missing. */
    public Path dataDir(String server) {
        return ensure(dataPath(server));
    }

    /** A server's data directory, not created (constructors and status stay free of side effects). */
    Path dataPath(String server) {
        return home.resolve("data").resolve(server);
    }

    /** A file under {@code logs/}, the directory not created. */
    Path logFile(String fileName) {
        return home.resolve("logs").resolve(fileName);
    }

    /** A file under {@code run/} (pid files, locks, tokens), the directory not created. */
    Path runFile(String fileName) {
        return home.resolve("run").resolve(fileName);
    }

    public Path logsDir() {
        return ensure(home.resolve("logs"));
    }

    public Path runDir() {
        return ensure(home.resolve("run"));
    }

    public Path definitions() {
        return root.resolve("infra").resolve("definitions");
    }

    /** The runtime classpath a module's build wrote (target/classpath.txt), prefixed with its classes if any. */
    public String classpathOf(String module) {
        Path dir = root.resolve(module).resolve("target");
        Path file = dir.resolve("classpath.txt");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file + " is missing: build first (./pinfeed builds it)");
        }
        try {
            String deps = Files.readString(file).trim();
            Path classes = dir.resolve("classes");
            return Files.isDirectory(classes) ? classes + ":" + deps : deps;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path ensure(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
