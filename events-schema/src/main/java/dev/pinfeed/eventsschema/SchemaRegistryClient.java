package dev.pinfeed.eventsschema;

import org.apache.avro.Schema;

/** The part of a Confluent-compatible schema registry that pinfeed uses. Failures are {@link SchemaRegistryException}s. */
public interface SchemaRegistryClient {

    /** Registers {@code schema} under {@code subject} (or finds it already there) and returns its global id. */
    int register(String subject, Schema schema);

    /** The schema with global id {@code id}. */
    Schema schemaById(int id);

    /** Whether {@code schema} could be registered under {@code subject} given the subject's compatibility level. */
    boolean isCompatible(String subject, Schema schema);

    /** Sets the compatibility level of {@code subject}, e.g. {@code BACKWARD_TRANSITIVE} or {@code NONE}. */
    void setCompatibility(String subject, String level);
}
