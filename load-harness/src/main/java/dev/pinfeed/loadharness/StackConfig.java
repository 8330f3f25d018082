package dev.pinfeed.loadharness;

import dev.pinfeed.config.PinfeedConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The configuration a harness measures with: {@link PinfeedConfig#load()}, with the local stack's run directory (where its
 * credentials are) found the way {@code ./pinfeed} finds it. Run from the repository root, a harness needs neither
 * {@code PINFEED_HOME} nor {@code -Dpinfeed.root}: without them its clients had no credentials, and Kafka's admin client
 * only said "Timed out waiting for a node assignment" a minute later.
 */
final class StackConfig {

    private StackConfig() {}

    static PinfeedConfig load() {
        rootFor(PinfeedConfig.localRunDirectory(), workingDirectory()).ifPresent(root -> System.setProperty("pinfeed.root", root.toString()));
        return PinfeedConfig.load();
    }

    /** The stack's run directory: the one configuration names, else the working directory's. */
    static Path runDirectory() {
        return PinfeedConfig.localRunDirectory().orElse(PinfeedConfig.runDirectoryUnder(workingDirectory()));
    }

    /** The root to assume: the working directory, when nothing names a run directory and it holds a stack's. */
    static Optional<Path> rootFor(Optional<Path> named, Path workingDirectory) {
        if (named.isPresent()) return Optional.empty();
        return Files.isDirectory(PinfeedConfig.runDirectoryUnder(workingDirectory)) ? Optional.of(workingDirectory) : Optional.empty();
    }

    private static Path workingDirectory() {
        return Path.of(System.getProperty("user.dir"));
    }
}
