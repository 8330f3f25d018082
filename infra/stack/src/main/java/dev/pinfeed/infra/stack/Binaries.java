package dev.pinfeed.infra.stack;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Locates OS-package binaries and shared libraries (installed by ./pinfeed from Debian's mariadb-server, redis-server and libjemalloc2). */
public final class Binaries {

    private static final List<String> DIRS = List.of("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin", "/sbin", "/bin");

    private Binaries() {}

    public static String find(String name) {
        for (String d : DIRS) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) return p.toString();
        }
        throw new IllegalStateException(name + " is not installed (./pinfeed installs mariadb-server and redis-server with apt)");
    }

    /** The shared library {@code fileName} in the system's library directories (Debian's multiarch one first), if installed. */
    public static Optional<Path> library(String fileName) {
        return library(fileName, Path.of("/usr/lib"), Path.of("/usr/lib64"), Path.of("/lib"));
    }

    static Optional<Path> library(String fileName, Path... roots) {
        List<Path> dirs = new ArrayList<>();
        for (Path root : roots) {
            // Debian's multiarch directories: /usr/lib/x86_64-linux-gnu, /usr/lib/aarch64-linux-gnu
            try (DirectoryStream<Path> multiarch = Files.newDirectoryStream(root, "*-linux-gnu")) {
                multiarch.forEach(dirs::add);
            } catch (IOException | RuntimeException absent) {
                // no such root here
            }
            dirs.add(root);
        }
        return dirs.stream().map(d -> d.resolve(fileName)).filter(Files::isReadable).findFirst();
    }
}
