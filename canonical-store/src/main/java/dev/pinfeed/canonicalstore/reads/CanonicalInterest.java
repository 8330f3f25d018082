package dev.pinfeed.canonicalstore.reads;

import java.time.Instant;

/** An interest (a topic pins carry and users follow): its id, its name (a lower-case slug) and when it was created. */
public record CanonicalInterest(long id, String name, Instant createdAt) {}
