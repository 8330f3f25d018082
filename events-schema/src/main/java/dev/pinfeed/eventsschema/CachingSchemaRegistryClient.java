package dev.pinfeed.eventsschema;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * Remembers registrations and ids, so serializing or deserializing a record costs no network call
 * after the first of its kind. Ids and registered schemas never change, so nothing expires.
 * Compatibility checks and settings are not cached: they depend on state that changes.
 */
public final class CachingSchemaRegistryClient implements SchemaRegistryClient {

    private record Registration(String subject, Schema schema) {}

    private final SchemaRegistryClient delegate;
    private final Map<Registration, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();

    public CachingSchemaRegistryClient(SchemaRegistryClient delegate) {
        this.delegate = delegate;
    }

    @Override
    public int register(String subject, Schema schema) {
        return ids.computeIfAbsent(new Registration(subject, schema), r -> {
            int id = delegate.register(r.subject(), r.schema());
            schemas.putIfAbsent(id, r.schema()); // a producer reading its own topic needs no fetch
            return id;
        });
    }

    @Override
    public Schema schemaById(int id) {
        return schemas.computeIfAbsent(id, delegate::schemaById);
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
