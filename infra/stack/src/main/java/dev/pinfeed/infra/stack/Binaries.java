package dev.pinfeed.infra.stack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Locates OS-package binaries (installed by ./pinfeed from Debian's mariadb-server and redis-server). */
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
}
