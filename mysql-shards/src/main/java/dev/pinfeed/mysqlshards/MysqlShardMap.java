package dev.pinfeed.mysqlshards;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.config.ContiguousRanges;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.PinfeedConfig.ReplicatedHost;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The seed's MySQL configuration table: which host holds each logical shard, and where that host's
 * master and replica listen. The only place that parses or formats it, and the only place that
 * formats shard database names ({@code db03429}).
 *
 * <p>Two text forms. The JSON form is what the live znode holds:
 * <pre>{"version":1,"ranges":[{"first":0,"last":2047,"host":"mysql001","master":"127.0.0.1:13306","replica":"127.0.0.1:13307"}, …]}</pre>
 * The legacy form {@code 0-2047:mysql001,2048-4095:mysql002} (the {@code mysql.shards} key, older
 * znodes) names hosts only; their addresses then come from {@link HostAddresses}.
 *
 * <p>Every map is valid: ranges contiguous from 0 without gap or overlap, below 65536, each with a
 * master address ({@code replica} is optional: a host may have none), and one pair of addresses per
 * host name. {@link #successor} adds the rule between versions: shards never disappear.
 *
 * <p>A map may also fence shard intervals ({@code "fences":[{"first":0,"last":63}]}): a shard move's
 * cutover. {@link ShardDataSources#hostOf} makes writers and readers of a fenced shard wait until
 * the fence is lifted, so they pause rather than fail while the range changes host. And it may say
 * where new users go ({@code "newUsers":[{"first":4096,"last":4159}]}: shards an operator opened),
 * which ingest-api follows live; without it the configuration's {@code ids.open-shards} holds.
 */
public final class MysqlShardMap {

    /** Shard numbers are 16 bits of the sharded id. */
    public static final int MAX_SHARDS = 0x10000;
    static final int VERSION = 1;
    private static final String WHAT = "mysql shard map";
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** Shards {@code first..last} live on {@code host}, whose master is {@code master}; {@code replica} may be null. */
    public record Range(int first, int last, String host, HostPort master, HostPort replica) {
        boolean contains(int shard) {
            return shard >= first && shard <= last;
        }

        public Optional<HostPort> replicaIfAny() {
            return Optional.ofNullable(replica);
        }
    }

    /** Where the hosts a legacy-form map names live. */
    @FunctionalInterface
    public interface HostAddresses {
        Optional<ReplicatedHost> find(String host);

        /** From {@code mysql.<host>.master} / {@code .replica}. */
        static HostAddresses from(PinfeedConfig config) {
            return config::mysqlHost;
        }

        static HostAddresses of(Collection<ReplicatedHost> hosts) {
            Map<String, ReplicatedHost> byName = new LinkedHashMap<>();
            hosts.forEach(h -> byName.put(h.name(), h));
            return name -> Optional.ofNullable(byName.get(name));
        }

        /** This lookup, then {@code fallback} for names it does not know. */
        default HostAddresses orElse(HostAddresses fallback) {
            return name -> find(name).or(() -> fallback.find(name));
        }
    }

    /** Shards {@code first..last}: a fence (callers wait until a later version lifts it), or where new users go. */
    public record Span(int first, int last) {
        public Span {
            if (first < 0 || last < first) throw new IllegalArgumentException(first + "-" + last + " is not a range of shards");
        }

        boolean contains(int shard) {
            return shard >= first && shard <= last;
        }

        @Override
        public String toString() {
            return first + "-" + last;
        }
    }

    private final List<Range> ranges;
    private final List<Span> fences;
    /** Where new users go (the seed's newly opened shards); empty: the configuration says ({@code ids.open-shards}). */
    private final List<Span> newUsers;
    private final Map<String, ReplicatedHost> hosts;

    private MysqlShardMap(List<Range> ranges) {
        this(ranges, List.of(), List.of());
    }

    private MysqlShardMap(List<Range> ranges, List<Span> fences, List<Span> newUsers) {
        List<ContiguousRanges.Entry> entries = new ArrayList<>();
        for (Range r : ranges) entries.add(new ContiguousRanges.Entry(r.first(), r.last(), r.host()));
        ContiguousRanges.check(entries, WHAT, "host", MAX_SHARDS);
        Map<String, ReplicatedHost> byName = new LinkedHashMap<>();
        for (Range r : ranges) {
            if (r.master() == null) throw new IllegalArgumentException(WHAT + " range " + describe(r) + " has no master address");
            ReplicatedHost host = new ReplicatedHost(r.host(), r.master(), r.replica());
            ReplicatedHost seen = byName.putIfAbsent(r.host(), host);
            // One host, one master: otherwise "the master of mysql001" would depend on the shard asked about.
            if (seen != null && !seen.equals(host)) {
                throw new IllegalArgumentException(WHAT + " gives host " + r.host() + " two address pairs: " + addresses(seen)
                        + " and " + addresses(host) + " (range " + describe(r) + ")");
            }
        }
        this.ranges = List.copyOf(ranges);
        this.hosts = Map.copyOf(byName);
        int count = ranges.get(ranges.size() - 1).last() + 1;
        for (Span f : fences) {
            if (f.last() >= count) throw new IllegalArgumentException(WHAT + " fences " + f + ", beyond its shards 0-" + (count - 1));
        }
        int previous = -1;
        for (Span n : newUsers) {
            if (n.last() >= count) throw new IllegalArgumentException(WHAT + " sends new users to " + n + ", beyond its shards 0-" + (count - 1));
            if (n.first() <= previous) throw new IllegalArgumentException(WHAT + " new-user ranges must ascend without overlap: " + newUsers);
            previous = n.last();
        }
        this.fences = List.copyOf(fences);
        this.newUsers = List.copyOf(newUsers);
    }

    /** A valid map of exactly these ranges, or {@link IllegalArgumentException} saying what is wrong. */
    public static MysqlShardMap of(List<Range> ranges) {
        return new MysqlShardMap(ranges);
    }

    /** Either text form; the legacy one takes its addresses from {@code addresses}. */
    public static MysqlShardMap parse(String text, HostAddresses addresses) {
        if (text == null || text.isBlank()) throw new IllegalArgumentException(WHAT + " is empty");
        return isJson(text) ? parseJson(text) : parseLegacy(text, addresses);
    }

    /** The configured map: {@code mysql.shards} in either form, legacy addresses from {@code mysql.<host>.*}. */
    public static MysqlShardMap from(PinfeedConfig config) {
        try {
            return parse(config.require("mysql.shards"), HostAddresses.from(config));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("configuration key 'mysql.shards': " + e.getMessage(), e);
        }
    }

    static boolean isJson(String text) {
        return text.stripLeading().startsWith("{");
    }

    private static MysqlShardMap parseLegacy(String text, HostAddresses addresses) {
        List<Range> ranges = new ArrayList<>();
        for (ContiguousRanges.Entry e : ContiguousRanges.parse(text, WHAT, "host", MAX_SHARDS)) {
            ReplicatedHost host = addresses.find(e.target()).orElseThrow(() -> new IllegalArgumentException(WHAT + " range '" + e
                    + "' names host " + e.target() + ", whose address is unknown (the legacy form takes it from mysql."
                    + e.target() + ".master)"));
            ranges.add(new Range(e.first(), e.last(), e.target(), host.master(), host.replica()));
        }
        return new MysqlShardMap(ranges);
    }

    private static MysqlShardMap parseJson(String text) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            // Jackson's message repeats the source and start marker over several lines; line, column and the first clause suffice.
            String why = e.getOriginalMessage().lines().findFirst().orElse("").replaceAll("\\s*\\(start marker at.*", "");
            String at = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            throw new IllegalArgumentException(WHAT + " is not valid JSON" + at + ": " + why);
        }
        if (root == null || !root.isObject()) throw new IllegalArgumentException(WHAT + " is not a JSON object");
        if (!root.path("version").isInt() || root.path("version").asInt() != VERSION) {
            throw new IllegalArgumentException(WHAT + " has version " + root.path("version") + ", this build reads version " + VERSION);
        }
        JsonNode list = root.path("ranges");
        if (!list.isArray() || list.isEmpty()) throw new IllegalArgumentException(WHAT + " has no \"ranges\" array");
        List<Range> ranges = new ArrayList<>();
        for (JsonNode r : list) {
            String where = WHAT + " range " + r;
            if (!r.path("first").isInt() || !r.path("last").isInt()) throw new IllegalArgumentException(where + " needs integer \"first\" and \"last\"");
            if (!r.path("host").isTextual()) throw new IllegalArgumentException(where + " needs a \"host\" name");
            ranges.add(new Range(r.path("first").asInt(), r.path("last").asInt(), r.path("host").asText(),
                    address(r, "master", where), r.hasNonNull("replica") ? address(r, "replica", where) : null));
        }
        return new MysqlShardMap(ranges, spans(root, "fences"), spans(root, "newUsers"));
    }

    private static List<Span> spans(JsonNode root, String field) {
        List<Span> out = new ArrayList<>();
        JsonNode list = root.path(field);
        if (!list.isMissingNode() && !list.isArray()) throw new IllegalArgumentException(WHAT + " has \"" + field + "\" that is not an array");
        for (JsonNode f : list) {
            if (!f.path("first").isInt() || !f.path("last").isInt()) {
                throw new IllegalArgumentException(WHAT + " " + field + " entry " + f + " needs integer \"first\" and \"last\"");
            }
            out.add(new Span(f.path("first").asInt(), f.path("last").asInt()));
        }
        return out;
    }

    private static HostPort address(JsonNode range, String field, String where) {
        JsonNode value = range.path(field);
        if (!value.isTextual()) throw new IllegalArgumentException(where + " has no \"" + field + "\" address");
        try {
            return HostPort.parse(value.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": \"" + field + "\" " + e.getMessage());
        }
    }

    /**
     * {@code next} if it may replace this map, else {@link IllegalArgumentException} saying why: it
     * must keep every shard this map has (shards never disappear; growing is allowed). Hosts, ranges
     * and addresses may all change (shard moves, failover).
     */
    public MysqlShardMap successor(MysqlShardMap next) {
        if (next.shardCount() < shardCount()) {
            throw new IllegalArgumentException(WHAT + " would shrink from 0-" + (shardCount() - 1) + " to 0-" + (next.shardCount() - 1)
                    + ": shards " + next.shardCount() + "-" + (shardCount() - 1) + " would be on no host");
        }
        return next;
    }

    public int shardCount() {
        return ranges.get(ranges.size() - 1).last() + 1;
    }

    public List<Range> ranges() {
        return ranges;
    }

    public String hostOf(int shard) {
        return rangeOf(shard).host();
    }

    public Range rangeOf(int shard) {
        for (Range r : ranges) {
            if (r.contains(shard)) return r;
        }
        throw new IllegalArgumentException("shard " + shard + " is outside the shard map (0-" + (shardCount() - 1) + ")");
    }

    /** The host names, in shard order. */
    public Set<String> hosts() {
        Set<String> names = new LinkedHashSet<>();
        ranges.forEach(r -> names.add(r.host()));
        return names;
    }

    /** The host's addresses, or {@link IllegalArgumentException} if this map places no shard on it. */
    public ReplicatedHost host(String name) {
        ReplicatedHost host = hosts.get(name);
        if (host == null) throw new IllegalArgumentException("no MySQL host '" + name + "' in the shard map (hosts: " + hosts() + ")");
        return host;
    }

    public HostPort master(String host) {
        return host(host).master();
    }

    /**
     * This map after a failover of {@code host}: its replica is its master, and it has no replica until
     * one is attached. {@link IllegalArgumentException} when the map gives the host no replica.
     */
    public MysqlShardMap promotingReplicaOf(String host) {
        ReplicatedHost h = host(host);
        if (h.replica() == null) throw new IllegalArgumentException("MySQL host '" + host + "' has no replica in the shard map: nothing to promote");
        List<Range> next = new ArrayList<>(ranges.size());
        for (Range r : ranges) next.add(r.host().equals(host) ? new Range(r.first(), r.last(), host, h.replica(), null) : r);
        return new MysqlShardMap(next, fences, newUsers);
    }

    /**
     * This map with shards {@code first..last} on {@code host} (a host of this map, or a new one with
     * these addresses), neighbouring ranges of one host merged. Fences are kept.
     */
    public MysqlShardMap assigning(int first, int last, ReplicatedHost host) {
        if (first < 0 || last < first || last >= shardCount()) {
            throw new IllegalArgumentException("shards " + first + "-" + last + " are not a range of the shard map (0-" + (shardCount() - 1) + ")");
        }
        List<Range> split = new ArrayList<>();
        for (Range r : ranges) {
            if (r.last() < first || r.first() > last) {
                split.add(r);
                continue;
            }
            if (r.first() < first) split.add(new Range(r.first(), first - 1, r.host(), r.master(), r.replica()));
            if (r.first() <= first) split.add(new Range(first, last, host.name(), host.master(), host.replica()));
            if (r.last() > last) split.add(new Range(last + 1, r.last(), r.host(), r.master(), r.replica()));
        }
        return new MysqlShardMap(merged(split), fences, newUsers);
    }

    /** Opens shards {@code shardCount()..last} on {@code host}: the map grows, nothing moves. */
    public MysqlShardMap growing(int last, ReplicatedHost host) {
        if (last < shardCount()) throw new IllegalArgumentException("the shard map already has shards 0-" + (shardCount() - 1));
        List<Range> next = new ArrayList<>(ranges);
        next.add(new Range(shardCount(), last, host.name(), host.master(), host.replica()));
        return new MysqlShardMap(merged(next), fences, newUsers);
    }

    private static List<Range> merged(List<Range> ranges) {
        List<Range> out = new ArrayList<>();
        for (Range r : ranges) {
            Range prev = out.isEmpty() ? null : out.get(out.size() - 1);
            if (prev != null && prev.host().equals(r.host()) && prev.last() + 1 == r.first()) {
                out.set(out.size() - 1, new Range(prev.first(), r.last(), prev.host(), prev.master(), prev.replica()));
            } else {
                out.add(r);
            }
        }
        return out;
    }

    /** This map with shards {@code first..last} fenced as well. */
    public MysqlShardMap fencing(int first, int last) {
        List<Span> next = new ArrayList<>(fences);
        next.add(new Span(first, last));
        return new MysqlShardMap(ranges, next, newUsers);
    }

    /** This map without the fence on exactly {@code first..last} (no change if there is none). */
    public MysqlShardMap unfencing(int first, int last) {
        List<Span> next = new ArrayList<>(fences);
        next.remove(new Span(first, last));
        return new MysqlShardMap(ranges, next, newUsers);
    }

    /** This map sending new users to {@code spans} (ascending, disjoint); empty: where the configuration says. */
    public MysqlShardMap withNewUsers(List<Span> spans) {
        return new MysqlShardMap(ranges, fences, spans);
    }

    /** Where new users go, if this map says (an operator opened shards for them); empty: the configuration's {@code ids.open-shards}. */
    public List<Span> newUsers() {
        return newUsers;
    }

    public List<Span> fences() {
        return fences;
    }

    /** Whether a fence holds {@code shard}: a move's cutover is under way. */
    public boolean fenced(int shard) {
        for (Span f : fences) {
            if (f.contains(shard)) return true;
        }
        return false;
    }

    /** The addresses of this map's hosts, e.g. to read a legacy-form edit against. */
    public HostAddresses addresses() {
        return name -> Optional.ofNullable(hosts.get(name));
    }

    public List<Integer> shardsOn(String host) {
        List<Integer> shards = new ArrayList<>();
        for (Range r : ranges) {
            if (r.host().equals(host)) {
                for (int s = r.first(); s <= r.last(); s++) shards.add(s);
            }
        }
        return shards;
    }

    public static String databaseName(int shard) {
        if (shard < 0 || shard >= MAX_SHARDS) throw new IllegalArgumentException("shard out of range: " + shard);
        return String.format(Locale.ROOT, "db%05d", shard);
    }

    /** The legacy text form: ranges and host names, no addresses. */
    public String format() {
        StringBuilder sb = new StringBuilder();
        for (Range r : ranges) {
            if (sb.length() > 0) sb.append(',');
            sb.append(r.first()).append('-').append(r.last()).append(':').append(r.host());
        }
        return sb.toString();
    }

    /** The JSON form, on one line (what the znode holds). */
    public String toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", VERSION);
        ArrayNode list = root.putArray("ranges");
        for (Range r : ranges) {
            ObjectNode o = list.addObject();
            o.put("first", r.first());
            o.put("last", r.last());
            o.put("host", r.host());
            o.put("master", r.master().toString());
            if (r.replica() != null) o.put("replica", r.replica().toString());
        }
        putSpans(root, "fences", fences);
        putSpans(root, "newUsers", newUsers);
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings and ints always serializes", e);
        }
    }

    private static void putSpans(ObjectNode root, String field, List<Span> spans) {
        if (spans.isEmpty()) return;
        ArrayNode list = root.putArray(field);
        for (Span f : spans) list.addObject().put("first", f.first()).put("last", f.last());
    }

    private static String describe(Range r) {
        return r.first() + "-" + r.last() + ":" + r.host();
    }

    private static String addresses(ReplicatedHost h) {
        return "master " + h.master() + (h.replica() == null ? "" : ", replica " + h.replica());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MysqlShardMap m && m.ranges.equals(ranges) && m.fences.equals(fences) && m.newUsers.equals(newUsers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ranges, fences, newUsers);
    }

    @Override
    public String toString() {
        return toJson();
    }
}
