package dev.pinfeed.fanoutstreams;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Receivers known to count as active (the fan-out's active-receiver policy) until a time, so a page's
 * last-read check asks the store only about the others: a big author's next pin finds most of its
 * receivers here. Exact for the policy, because reading one's feed only moves one's last read forward:
 * a user whose last read was {@code r} is active at least until {@code r + window}; one who never read
 * is active at least until {@code now + window} (should he read and then stop, he drops out no sooner).
 * Fixed memory, {@code 2^slotBits} hashed slots of (user, until): a collision only evicts, and the
 * evicted user is asked again. Thread-safe (the fetch threads share it).
 *
 * <p>The same argument makes a saved copy exact after a restart, however old, as long as the window is
 * the same: {@link #save} writes the entries still running with the window they were computed for, and
 * {@link #load} takes them back only under that window. So a restarted fan-out does not ask the store
 * again about every receiver it already knew (a 100 000-receiver pin pays one last-read Get each).
 */
public final class KnownActiveUsers {

    /** 2^20 slots (16 MiB): about a million receivers' activity remembered between their pins. */
    public static final int DEFAULT_SLOT_BITS = 20;
    private static final int MAGIC = 0x50464b41; // "PFKA"
    private static final int VERSION = 1;

    private final long[] users;
    private final long[] until;
    private final int shift;

    public KnownActiveUsers(int slotBits) {
        if (slotBits < 1 || slotBits > 30) throw new IllegalArgumentException("slot bits must be in 1..30: " + slotBits);
        this.users = new long[1 << slotBits];
        this.until = new long[1 << slotBits];
        this.shift = 64 - slotBits;
    }

    /** Whether the user is known to be active at {@code nowMillis}. */
    synchronized boolean isActive(long user, long nowMillis) {
        int s = slot(user);
        return users[s] == user && until[s] >= nowMillis;
    }

    /** The user is active at least until {@code untilMillis}. */
    synchronized void activeUntil(long user, long untilMillis) {
        int s = slot(user);
        if (users[s] == user && until[s] >= untilMillis) return;
        users[s] = user;
        until[s] = untilMillis;
    }

    /**
     * Writes the entries still running at {@code nowMillis}, computed for {@code windowMillis}, to
     * {@code file}: a temporary file beside it, then moved over it, so a crash mid-write leaves the
     * previous copy. Returns how many entries were written.
     */
    public int save(Path file, long windowMillis, long nowMillis) throws IOException {
        long[] u;
        long[] t;
        synchronized (this) { // a copy (a few ms for 2^20 slots), so lookups do not wait for the disk
            u = users.clone();
            t = until.clone();
        }
        int live = 0;
        for (int s = 0; s < u.length; s++) {
            if (u[s] != 0 && t[s] >= nowMillis) live++;
        }
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(temp), 1 << 16))) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeLong(windowMillis);
            out.writeInt(live);
            for (int s = 0; s < u.length; s++) {
                if (u[s] == 0 || t[s] < nowMillis) continue;
                out.writeLong(u[s]);
                out.writeLong(t[s]);
            }
        }
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return live;
    }

    /**
     * Takes back the entries of a {@link #save saved} copy that still run at {@code nowMillis}; returns
     * how many. None from a missing file; {@link IOException} for a copy that is not one, is truncated,
     * or was computed for another window (entries of a longer one could keep an inactive user in).
     */
    public int load(Path file, long windowMillis, long nowMillis) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            if (in.readInt() != MAGIC) throw new IOException(file + " is not a copy of known active receivers");
            int version = in.readInt();
            if (version != VERSION) throw new IOException(file + " has version " + version + ", expected " + VERSION);
            long window = in.readLong();
            if (window != windowMillis) {
                throw new IOException(file + " was computed for an activity window of " + window + " ms, not " + windowMillis + " ms");
            }
            int count = in.readInt();
            if (count < 0) throw new IOException(file + " holds a negative entry count");
            int loaded = 0;
            for (int i = 0; i < count; i++) {
                long user = in.readLong();
                long runsUntil = in.readLong();
                if (user != 0 && runsUntil >= nowMillis) {
                    activeUntil(user, runsUntil);
                    loaded++;
                }
            }
            return loaded;
        } catch (NoSuchFileException e) {
            return 0;
        } catch (EOFException e) {
            throw new IOException(file + " is truncated", e);
        }
    }

    private int slot(long user) {
        return (int) ((user * 0x9E3779B97F4A7C15L) >>> shift);
    }
}
