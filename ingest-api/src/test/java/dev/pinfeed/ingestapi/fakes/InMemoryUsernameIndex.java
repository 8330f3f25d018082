package dev.pinfeed.ingestapi.fakes;

import dev.pinfeed.ingestapi.core.UsernameIndex;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Usernames in a concurrent map: putIfAbsent gives the same one-winner race as the primary key. */
public final class InMemoryUsernameIndex implements UsernameIndex {

    private final Map<String, Long> owners = new ConcurrentHashMap<>();
    /** What {@link #claimAll} was asked, call by call. */
    public final List<Map<String, Long>> claimAllCalls = new CopyOnWriteArrayList<>();
    public final AtomicInteger singleClaims = new AtomicInteger();
    /** When set, {@link #claimAll} claims and then throws it (a store lost after its commit). */
    public volatile RuntimeException failClaimAllAfterClaiming;

    @Override
    public boolean claim(String username, long userId) {
        singleClaims.incrementAndGet();
        return holds(username, userId);
    }

    @Override
    public Set<String> claimAll(Map<String, Long> claims) {
        claimAllCalls.add(Map.copyOf(claims));
        Set<String> claimed = new HashSet<>();
        claims.forEach((name, userId) -> {
            if (holds(name, userId)) claimed.add(name);
        });
        if (failClaimAllAfterClaiming != null) throw failClaimAllAfterClaiming;
        return claimed;
    }

    private boolean holds(String username, long userId) {
        return owners.computeIfAbsent(username, u -> userId) == userId;
    }

    @Override
    public void release(String username, long userId) {
        owners.remove(username, userId);
    }

    @Override
    public OptionalLong find(String username) {
        Long id = owners.get(username);
        return id == null ? OptionalLong.empty() : OptionalLong.of(id);
    }
}
