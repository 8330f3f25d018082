package dev.pinfeed.infra.schemaregistry;

import dev.pinfeed.infra.schemaregistry.CompatibilityLevel.PriorSchema;
import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.ConfigChange;
import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.SchemaVersion;
import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.SubjectDeletion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.Schema;

/**
 * The registry's rules, free of HTTP and Kafka: subjects with numbered versions, global schema ids
 * shared across subjects, and compatibility levels.
 *
 * <p>Every change is first appended to the {@link SchemaLog} and only then applied to memory through
 * the same {@link #apply} that replays the log at start, so a restarted registry rebuilds exactly the
 * state it had. Methods are synchronized: writes are rare and this keeps id and version assignment
 * trivially unique within the (single) writer process.
 */
public final class SchemaRegistry {

    private static final String LATEST = "latest";

    private final SchemaLog log;
    private final CompatibilityLevel defaultLevel;

    private final Map<String, TreeMap<Integer, SchemaVersion>> subjects = new TreeMap<>();
    private final Map<Integer, String> schemaById = new HashMap<>();
    private final Map<String, Integer> idBySchema = new HashMap<>();
    private final Map<Integer, Schema> parsedById = new HashMap<>();
    private final Map<String, CompatibilityLevel> subjectLevels = new HashMap<>();
    private CompatibilityLevel globalLevel;
    private int highestId;

    private SchemaRegistry(SchemaLog log, CompatibilityLevel defaultLevel) {
        this.log = Objects.requireNonNull(log, "log");
        this.defaultLevel = Objects.requireNonNull(defaultLevel, "defaultLevel");
    }

    /**
     * A registry over {@code log}, with the state the log's records describe. {@code defaultLevel}
     * is the global compatibility until a PUT /config is stored in the log.
     */
    public static SchemaRegistry replaying(SchemaLog log, CompatibilityLevel defaultLevel) {
        SchemaRegistry registry = new SchemaRegistry(log, defaultLevel);
        synchronized (registry) {
            log.replay(registry::apply);
        }
        return registry;
    }

    // ---- schemas and subjects ----

    /** Registers {@code schemaText} under {@code subject} and returns its global id (the existing one if already registered). */
    public synchronized int register(String subject, String schemaText) {
        Schema candidate = parse(schemaText);
        String canonical = candidate.toString();
        TreeMap<Integer, SchemaVersion> versions = subjects.getOrDefault(subject, new TreeMap<>());
        for (SchemaVersion existing : versions.values()) {
            if (!existing.deleted() && existing.schema().equals(canonical)) {
                return existing.id();
            }
        }
        List<String> problems = effectiveCompatibility(subject).incompatibilities(candidate, liveVersions(subject));
        if (!problems.isEmpty()) {
            throw RegistryException.incompatible(subject, problems);
        }
        int id = idBySchema.getOrDefault(canonical, highestId + 1);
        int version = versions.isEmpty() ? 1 : versions.lastKey() + 1; // soft-deleted versions keep their numbers
        store(new SchemaVersion(subject, version, id, canonical, false));
        return id;
    }

    /** The live version of {@code subject} holding {@code schemaText}. */
    public synchronized RegisteredSchema lookup(String subject, String schemaText) {
        String canonical = parse(schemaText).toString();
        return requireLive(subject).values().stream()
                .filter(v -> v.schema().equals(canonical))
                .findFirst()
                .map(SchemaRegistry::toRegistered)
                .orElseThrow(RegistryException::schemaNotFound);
    }

    /** Subjects with at least one live (not soft-deleted) version, sorted. */
    public synchronized List<String> subjects() {
        return subjects.keySet().stream().filter(s -> !live(s).isEmpty()).toList();
    }

    public synchronized List<Integer> versions(String subject) {
        return List.copyOf(requireLive(subject).keySet());
    }

    /** {@code version} is a number or "latest" (also "-1"), as in the REST paths. */
    public synchronized RegisteredSchema version(String subject, String version) {
        return toRegistered(resolve(subject, version));
    }

    public synchronized String schemaById(int id) {
        String schema = schemaById.get(id);
        if (schema == null) {
            throw RegistryException.schemaIdNotFound(id);
        }
        return schema;
    }

    /** Every live subject version that uses schema {@code id}. */
    public synchronized List<RegisteredSchema> versionsOfId(int id) {
        schemaById(id);
        List<RegisteredSchema> uses = new ArrayList<>();
        for (String subject : subjects.keySet()) {
            live(subject).values().stream().filter(v -> v.id() == id).map(SchemaRegistry::toRegistered).forEach(uses::add);
        }
        return uses;
    }

    /** Soft-deletes every live version of {@code subject}; returns their numbers. Ids stay resolvable. */
    public synchronized List<Integer> deleteSubject(String subject) {
        TreeMap<Integer, SchemaVersion> live = requireLive(subject);
        List<Integer> deleted = List.copyOf(live.keySet());
        store(new SubjectDeletion(subject, subjects.get(subject).lastKey()));
        return deleted;
    }

    /** Soft-deletes one version; returns its number. */
    public synchronized int deleteVersion(String subject, String version) {
        SchemaVersion target = resolve(subject, version);
        store(target.asDeleted());
        return target.version();
    }

    // ---- compatibility ----

    public synchronized CompatibilityLevel globalCompatibility() {
        return globalLevel != null ? globalLevel : defaultLevel;
    }

    public synchronized void setGlobalCompatibility(CompatibilityLevel level) {
        store(ConfigChange.global(level));
    }

    /** The subject's own override, if it has one. */
    public synchronized Optional<CompatibilityLevel> subjectCompatibility(String subject) {
        return Optional.ofNullable(subjectLevels.get(subject));
    }

    public synchronized CompatibilityLevel effectiveCompatibility(String subject) {
        return subjectCompatibility(subject).orElseGet(this::globalCompatibility);
    }

    public synchronized void setSubjectCompatibility(String subject, CompatibilityLevel level) {
        store(ConfigChange.subject(subject, Objects.requireNonNull(level, "level")));
    }

    /** Removes the subject's override so it follows the global level again; returns the removed level. */
    public synchronized CompatibilityLevel clearSubjectCompatibility(String subject) {
        CompatibilityLevel previous = subjectCompatibility(subject).orElseThrow(() -> RegistryException.subjectConfigNotFound(subject));
        store(ConfigChange.subject(subject, null));
        return previous;
    }

    /**
     * Why {@code schemaText} could not be registered after {@code version} of {@code subject} under the
     * subject's compatibility level; empty if it could. "latest" checks like a registration would
     * (all live versions for transitive levels) and passes for a subject with no versions yet.
     */
    public synchronized List<String> testCompatibility(String subject, String version, String schemaText) {
        Schema candidate = parse(schemaText);
        CompatibilityLevel level = effectiveCompatibility(subject);
        if (isLatest(version)) {
            return level.incompatibilities(candidate, liveVersions(subject));
        }
        SchemaVersion target = resolve(subject, version);
        return level.incompatibilities(candidate, List.of(new PriorSchema(target.version(), parsed(target.id()))));
    }

    // ---- state changes: log first, then memory ----

    private void store(SchemaLogRecord record) {
        log.append(record);
        apply(record);
    }

    private void apply(SchemaLogRecord record) {
        if (record instanceof SchemaVersion v) {
            subjects.computeIfAbsent(v.subject(), s -> new TreeMap<>()).put(v.version(), v);
            schemaById.putIfAbsent(v.id(), v.schema());
            idBySchema.putIfAbsent(v.schema(), v.id());
            highestId = Math.max(highestId, v.id()); // ids are never reused, even if every use is deleted
        } else if (record instanceof ConfigChange c) {
            if (c.isGlobal()) {
                globalLevel = c.level();
            } else if (c.level() == null) {
                subjectLevels.remove(c.subject());
            } else {
                subjectLevels.put(c.subject(), c.level());
            }
        } else if (record instanceof SubjectDeletion d) {
            subjects.getOrDefault(d.subject(), new TreeMap<>()).headMap(d.upToVersion(), true)
                    .replaceAll((version, v) -> v.asDeleted());
        }
    }

    // ---- helpers ----

    private TreeMap<Integer, SchemaVersion> live(String subject) {
        TreeMap<Integer, SchemaVersion> live = new TreeMap<>();
        subjects.getOrDefault(subject, new TreeMap<>()).forEach((n, v) -> {
            if (!v.deleted()) {
                live.put(n, v);
            }
        });
        return live;
    }

    private TreeMap<Integer, SchemaVersion> requireLive(String subject) {
        TreeMap<Integer, SchemaVersion> live = live(subject);
        if (live.isEmpty()) {
            throw RegistryException.subjectNotFound(subject);
        }
        return live;
    }

    private List<PriorSchema> liveVersions(String subject) {
        return live(subject).values().stream().map(v -> new PriorSchema(v.version(), parsed(v.id()))).toList();
    }

    private SchemaVersion resolve(String subject, String version) {
        TreeMap<Integer, SchemaVersion> live = requireLive(subject);
        if (isLatest(version)) {
            return live.lastEntry().getValue();
        }
        int number = parseVersion(version);
        SchemaVersion found = live.get(number);
        if (found == null) {
            throw RegistryException.versionNotFound(number);
        }
        return found;
    }

    private static boolean isLatest(String version) {
        return LATEST.equalsIgnoreCase(version) || "-1".equals(version);
    }

    private static int parseVersion(String version) {
        try {
            int number = Integer.parseInt(version);
            if (number >= 1) {
                return number;
            }
        } catch (NumberFormatException notANumber) {
            // reported below, like any other out-of-range value
        }
        throw RegistryException.invalidVersion(version);
    }

    private Schema parsed(int id) {
        return parsedById.computeIfAbsent(id, i -> parse(schemaById.get(i)));
    }

    /** Avro's parser with its default validation (names, defaults); any failure is the caller's bad schema. */
    static Schema parse(String schemaText) {
        if (schemaText == null || schemaText.isBlank()) {
            throw RegistryException.invalidSchema("the schema is empty");
        }
        try {
            return new Schema.Parser().parse(schemaText);
        } catch (RuntimeException e) {
            throw RegistryException.invalidSchema(String.valueOf(e.getMessage()));
        }
    }

    private static RegisteredSchema toRegistered(SchemaVersion v) {
        return new RegisteredSchema(v.subject(), v.version(), v.id(), v.schema());
    }
}
