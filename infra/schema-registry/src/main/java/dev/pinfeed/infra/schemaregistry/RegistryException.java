package dev.pinfeed.infra.schemaregistry;

import java.util.List;

/**
 * A request the registry refuses, with the HTTP status and the Confluent error code clients
 * (e.g. Confluent's CachedSchemaRegistryClient) switch on. The message is safe to show to callers.
 */
public final class RegistryException extends RuntimeException {

    private final int httpStatus;
    private final int errorCode;

    RegistryException(int httpStatus, int errorCode, String message) {
        super(message, null, false, false);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public int errorCode() {
        return errorCode;
    }

    static RegistryException subjectNotFound(String subject) {
        return new RegistryException(404, 40401, "Subject '" + subject + "' not found.");
    }

    static RegistryException versionNotFound(int version) {
        return new RegistryException(404, 40402, "Version " + version + " not found.");
    }

    static RegistryException schemaNotFound() {
        return new RegistryException(404, 40403, "Schema not found");
    }

    static RegistryException schemaIdNotFound(int id) {
        return new RegistryException(404, 40403, "Schema " + id + " not found");
    }

    static RegistryException subjectConfigNotFound(String subject) {
        return new RegistryException(404, 40408, "Subject '" + subject + "' does not have subject-level compatibility configured");
    }

    static RegistryException incompatible(String subject, List<String> details) {
        return new RegistryException(409, 409, "Schema being registered is incompatible with an earlier schema for subject \""
                + subject + "\", details: " + details);
    }

    static RegistryException invalidSchema(String reason) {
        return new RegistryException(422, 42201, "Invalid schema: " + reason);
    }

    static RegistryException invalidVersion(String version) {
        return new RegistryException(422, 42202, "The specified version '" + version
                + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\"");
    }

    static RegistryException invalidCompatibilityLevel(String level) {
        return new RegistryException(422, 42203, "Invalid compatibility level '" + level
                + "'. Valid values are none, backward, forward, full, backward_transitive, forward_transitive, and full_transitive");
    }
}
