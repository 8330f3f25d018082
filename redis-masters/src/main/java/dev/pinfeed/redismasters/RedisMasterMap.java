package dev.pinfeed.redismasters;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig.ReplicatedHost;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Where each Redis instance's master is now. Text form (the ZooKeeper znode's content):
 * {@code redis001=127.0.0.1:16380,redis002=127.0.0.1:16389}. The configuration names each instance's
 * pair of servers ({@code redis.<name>.master} / {@code .replica}); a failover swaps which of the two is
 * the master, so every address here must be one of its instance's pair. The only place that parses or
 * formats the text.
 */
public final class RedisMasterMap {

    private final Map<String, HostPort> masters;

    private RedisMasterMap(Map<String, HostPort> masters) {
        this.masters = Collections.unmodifiableMap(new TreeMap<>(masters));
    }

    /** Each configured instance at its configured master: the seed of the znode. */
    public static RedisMasterMap configured(List<ReplicatedHost> instances) {
        Map<String, HostPort> m = new TreeMap<>();
        for (ReplicatedHost h : instances) m.put(h.name(), h.master());
        return new RedisMasterMap(m);
    }

    public static RedisMasterMap parse(String text) {
        Map<String, HostPort> m = new TreeMap<>();
        for (String entry : text.trim().split(",")) {
            int eq = entry.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("redis master map: expected instance=host:port, got '" + entry.trim() + "'");
            String name = entry.substring(0, eq).trim();
            if (m.put(name, HostPort.parse(entry.substring(eq + 1).trim())) != null) {
                throw new IllegalArgumentException("redis master map names " + name + " twice");
            }
        }
        return new RedisMasterMap(m);
    }

    public String format() {
        StringBuilder sb = new StringBuilder();
        masters.forEach((name, address) -> sb.append(sb.length() > 0 ? "," : "").append(name).append('=').append(address));
        return sb.toString();
    }

    public HostPort masterOf(String instance) {
        HostPort a = masters.get(instance);
        if (a == null) throw new IllegalArgumentException("no redis instance " + instance + " in the master map (" + masters.keySet() + ")");
        return a;
    }

    public Set<String> instances() {
        return masters.keySet();
    }

    public RedisMasterMap withMaster(String instance, HostPort address) {
        masterOf(instance);
        Map<String, HostPort> m = new TreeMap<>(masters);
        m.put(instance, address);
        return new RedisMasterMap(m);
    }

    /**
     * Refuses a map that lacks a configured instance, names one the configuration lacks, or puts a
     * master at an address outside its instance's configured pair (a typo would send writes nowhere).
     */
    public RedisMasterMap checkedAgainst(List<ReplicatedHost> configured) {
        for (ReplicatedHost h : configured) {
            HostPort a = masters.get(h.name());
            if (a == null) throw new IllegalArgumentException("redis master map lacks instance " + h.name());
            if (!a.equals(h.master()) && !a.equals(h.replica())) {
                throw new IllegalArgumentException("redis master map puts " + h.name() + " at " + a + ", which is neither its configured master "
                        + h.master() + " nor its replica " + h.replica());
            }
        }
        if (masters.size() != configured.size()) {
            throw new IllegalArgumentException("redis master map names instances the configuration lacks: " + masters.keySet());
        }
        return this;
    }

    /** The other server of {@code instance}'s configured pair: the one to promote when {@code master} fails. */
    public static HostPort standbyOf(ReplicatedHost instance, HostPort master) {
        if (instance.replica() == null) throw new IllegalArgumentException("redis instance " + instance.name() + " has no replica configured");
        return master.equals(instance.master()) ? instance.replica() : instance.master();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RedisMasterMap m && m.masters.equals(masters);
    }

    @Override
    public int hashCode() {
        return masters.hashCode();
    }

    @Override
    public String toString() {
        return format();
    }
}
