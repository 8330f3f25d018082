package dev.pinfeed.operations.backup;

import dev.pinfeed.config.PinfeedConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where backups live: {@code backup.dir} (a local path, or a mounted one: NFS, a bucket through a FUSE
 * mount), by default {@code .pinfeed/backups} of the checkout. Each backup is a directory named by its
 * start time ({@code 20261128T120000Z}); it is written as {@code <id>.partial} and renamed when complete,
 * so a crashed backup never passes for one.
 */
final class BackupDirectory {

    static final String KEY = "backup.dir";
    private static final DateTimeFormatter ID = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final Path root;

    BackupDirectory(Path root) {
        this.root = root;
    }

    static BackupDirectory of(PinfeedConfig config, String override) {
        if (override != null) return new BackupDirectory(Path.of(override).toAbsolutePath().normalize());
        String configured = config.get(KEY, "");
        if (!configured.isBlank()) return new BackupDirectory(Path.of(configured).toAbsolutePath().normalize());
        return new BackupDirectory(dev.pinfeed.operations.OperationsCli.home().resolve(".pinfeed").resolve("backups"));
    }

    Path root() {
        return root;
    }

    static String idAt(Instant at) {
        return ID.format(at);
    }

    /** A fresh directory for backup {@code id}, to be {@link #commit}ted. */
    Path begin(String id) throws IOException {
        Path partial = root.resolve(id + ".partial");
        if (Files.exists(root.resolve(id))) throw new IllegalStateException("backup " + id + " already exists in " + root);
        deleteTree(partial);
        Files.createDirectories(partial);
        return partial;
    }

    Path commit(Path partial, String id) throws IOException {
        Path done = root.resolve(id);
        Files.move(partial, done, StandardCopyOption.ATOMIC_MOVE);
        return done;
    }

    /** Complete backups, oldest first. */
    List<BackupManifest> list() throws IOException {
        List<BackupManifest> out = new ArrayList<>();
        if (!Files.isDirectory(root)) return out;
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : dirs.sorted().toList()) {
                if (Files.isDirectory(d) && !d.getFileName().toString().endsWith(".partial") && BackupManifest.exists(d)) {
                    out.add(BackupManifest.read(d));
                }
            }
        }
        return out;
    }

    Path dir(String id) {
        Path d = root.resolve(id);
        if (!BackupManifest.exists(d)) throw new IllegalStateException("no backup " + id + " in " + root + " (./pinfeed backup list)");
        return d;
    }

    void delete(String id) {
        try {
            deleteTree(root.resolve(id));
        } catch (IOException e) {
            throw new UncheckedIOException("deleting backup " + id + " failed: " + e.getMessage(), e);
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
