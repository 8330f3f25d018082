package dev.pinfeed.infra.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * File steps that any number of threads and processes may run at once (the apps prepare in parallel;
 * two shells may start the same stack): readers never see a half-written file, and create-if-absent
 * has exactly one winner.
 */
final class AtomicFiles {

    /** In-JVM half of {@link #lock}: a file lock is per process, so threads of one JVM queue here first. */
    private static final Map<Path, ReentrantLock> LOCAL_LOCKS = new ConcurrentHashMap<>();

    private AtomicFiles() {}

    /** Writes {@code content} unless the file already holds it; the file is replaced whole (temp file + rename). */
    static void writeIfChanged(Path file, String content) {
        write(file, content, false);
    }

    /** {@link #writeIfChanged} for a secret: the file is private (mode 600) from the start. */
    static void writePrivate(Path file, String content) {
        write(file, content, true);
    }

    private static void write(Path file, String content, boolean privateMode) {
        try {
            if (Files.isRegularFile(file) && Files.readString(file).equals(content)) return;
            Path tmp = tempBeside(file, privateMode);
            try {
                Files.writeString(tmp, content);
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The content of a private (mode 600) file, created from {@code content} if absent. The complete file is
     * linked into place, so concurrent callers all read the one winner's content, never an empty file.
     */
    static String createPrivateIfAbsent(Path file, Supplier<String> content) {
        try {
            if (!Files.exists(file)) {
                Path tmp = tempBeside(file, true);
                try {
                    Files.writeString(tmp, content.get());
                    Files.createLink(file, tmp);
                } catch (FileAlreadyExistsException lostTheRace) {
                    // another caller created it first: theirs is the one
                } finally {
                    Files.deleteIfExists(tmp);
                }
            }
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file + ": " + e.getMessage(), e);
        }
    }

    private static Path tempBeside(Path file, boolean privateMode) throws IOException {
        Files.createDirectories(file.getParent());
        // Created private from the start: a secret is never readable by others, not even for an instant.
        return privateMode
                ? Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                : Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
    }

    /** An exclusive lock on {@code lockFile} across threads and processes; close it to release. */
    static Lock lock(Path lockFile) {
        Path key = lockFile.toAbsolutePath().normalize();
        ReentrantLock local = LOCAL_LOCKS.computeIfAbsent(key, k -> new ReentrantLock());
        local.lock();
        try {
            Files.createDirectories(key.getParent());
            FileChannel channel = FileChannel.open(key, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                return new Lock(local, channel, channel.lock());
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        } catch (IOException e) {
            local.unlock();
            throw new UncheckedIOException("cannot lock " + key + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            local.unlock();
            throw e;
        }
    }

    record Lock(ReentrantLock local, FileChannel channel, FileLock fileLock) implements AutoCloseable {
        @Override
        public void close() {
            try {
                fileLock.release();
                channel.close();
            } catch (IOException ignored) {
                // closing the channel releases the lock anyway
            } finally {
                local.unlock();
            }
        }
    }
}
