package dev.pinfeed.infra.schemaregistry;

/** A schema as registered under a subject: what GET /subjects/{subject}/versions/{version} returns. */
public record RegisteredSchema(String subject, int version, int id, String schema) {
}
