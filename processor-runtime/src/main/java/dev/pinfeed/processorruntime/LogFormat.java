package dev.pinfeed.processorruntime;

import java.util.Locale;

/**
 * How a pinfeed process logs: {@code text} (the default: lines for people) or {@code json} (one JSON object per
 * line in the Elastic Common Schema, for a log collector). The switch is the system property
 * {@value #PROPERTY} or the environment variable {@value #ENVIRONMENT}; the property wins, as for every other
 * setting. The log4j2 configurations pick their layout by the property {@link #select()} sets.
 */
public enum LogFormat {
    TEXT, JSON;

    public static final String PROPERTY = "pinfeed.log.format";
    public static final String ENVIRONMENT = "PINFEED_LOG_FORMAT";

    /** The format the property or, without it, the environment variable asks for; text when neither is set. */
    public static LogFormat of(String property, String environment) {
        String value = property != null ? property : environment;
        if (value == null || value.isBlank()) return TEXT;
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((property != null ? PROPERTY : ENVIRONMENT) + " must be text or json: '" + value + "'");
        }
    }

    /** This process's format, per {@value #PROPERTY} or {@value #ENVIRONMENT}. */
    public static LogFormat ofProcess() {
        return of(System.getProperty(PROPERTY), System.getenv(ENVIRONMENT));
    }

    /** Makes this the format of the log4j2 configuration read next (its arbiters test {@value #PROPERTY}). */
    public void select() {
        System.setProperty(PROPERTY, name().toLowerCase(Locale.ROOT));
    }
}
