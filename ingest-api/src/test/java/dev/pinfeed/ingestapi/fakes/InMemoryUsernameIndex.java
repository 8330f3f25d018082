package dev.pinfeed.ingestapi.fakes;

import dev.pinfeed.ingestapi.core.UsernameIndex;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/** Usernames in a concurrent map: putIfAbsent gives the same one-winner race as the primary key. */
public final class InMemoryUsernameIndex implements UsernameIndex {

    private final Map<String, Long> owners = new ConcurrentHashMap<>();

    @Override
    public boolean claim(String username, long userId) {
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
