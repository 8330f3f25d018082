package dev.pinfeed.eventsschema;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * Remembers registrations and ids, so serializing or deserializing a record costs no network call
 * after the first of its kind. Ids and registered schemas never change, so nothing expires.
 * An id the registry does not know (404) is remembered for {@code notFoundFor}: a stream of records
 * naming it costs one request per interval, not one per record; after that the registry is asked
 * again (a registry replica may have been behind). Compatibility checks and settings are not cached:
 * they depend on state that changes.
 */
public final class CachingSchemaRegistryClient implements SchemaRegistryClient {

    /** How long a 404 for an id is believed unless the constructor says otherwise. */
    public static final Duration NOT_FOUND_FOR = Duration.ofSeconds(10);
    /** Unknown ids remembered at most: a stream of ever new unknown ids costs requests, not memory. */
    static final int MAX_NOT_FOUND = 1024;

    private record Registration(String subject, Schema schema) {}

    private final SchemaRegistryClient delegate;
    private final Clock clock;
    private final Duration notFoundFor;
    private final Map<Registration, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();
    /** Unknown id → until when its 404 stands. */
    private final Map<Integer, Instant> notFound = new ConcurrentHashMap<>();

    public CachingSchemaRegistryClient(SchemaRegistryClient delegate) {
        this(delegate, Clock.systemUTC(), NOT_FOUND_FOR);
    }

    public CachingSchemaRegistryClient(SchemaRegistryClient delegate, Clock clock, Duration notFoundFor) {
        this.delegate = delegate;
        this.clock = clock;
        this.notFoundFor = notFoundFor;
    }

    @Override
    public int register(String subject, Schema schema) {
        return ids.computeIfAbsent(new Registration(subject, schema), r -> {
            int id = delegate.register(r.subject(), r.schema());
            schemas.putIfAbsent(id, r.schema()); // a producer reading its own topic needs no fetch
            notFound.remove(id);
            return id;
        });
    }

    @Override
    public Schema schemaById(int id) {
        Schema known = schemas.get(id);
        if (known != null) return known;
        Instant now = clock.instant();
        Instant until = notFound.get(id);
        if (until != null && now.isBefore(until)) {
            throw new SchemaRegistryException(SchemaRegistryException.NOT_FOUND, 40403,
                    "Schema " + id + " not found (the registry's answer, remembered until " + until + ")");
        }
        try {
            Schema fetched = delegate.schemaById(id);
            schemas.putIfAbsent(id, fetched);
            notFound.remove(id);
            return fetched;
        } catch (SchemaRegistryException e) {
            if (e.httpStatus() == SchemaRegistryException.NOT_FOUND) remember(id, now.plus(notFoundFor));
            throw e;
        }
    }

    private void remember(int id, Instant until) {
        if (notFound.size() >= MAX_NOT_FOUND) notFound.values().removeIf(u -> !clock.instant().isBefore(u));
        if (notFound.size() < MAX_NOT_FOUND) notFound.put(id, until);
    }

    @Override
    public boolean isCompatible(String subject, Schema schema) {
        return delegate.isCompatible(subject, schema);
    }

    @Override
    public void setCompatibility(String subject, String level) {
        delegate.setCompatibility(subject, level);
    }
}
