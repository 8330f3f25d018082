package dev.pinfeed.eventsschema;

import dev.pinfeed.config.PinfeedConfig;

/**
 * How much one event may make a reader allocate: the record's size, each string's or byte field's
 * length, each array's or map's item count. A crafted length prefix (an array of 2^30 items, a string
 * of 2 GB) is refused with a {@link DecodeLimitException} before anything of that size is allocated,
 * so a poison record is dead-lettered instead of running the processor out of memory. Avro's own
 * {@code org.apache.avro.limits.*} system properties are JVM-wide and read once at class load; these
 * are per reader and configured like every other pinfeed setting.
 *
 * @param maxRecordBytes     the Avro body after the wire-format header ({@value #MAX_RECORD_BYTES_KEY})
 * @param maxStringBytes     one string or bytes field ({@value #MAX_STRING_BYTES_KEY})
 * @param maxCollectionItems one array or map, all its blocks together ({@value #MAX_COLLECTION_ITEMS_KEY})
 */
public record DecodeLimits(int maxRecordBytes, int maxStringBytes, int maxCollectionItems) {

    public static final String MAX_RECORD_BYTES_KEY = "events.decode.max-record-bytes";
    public static final String MAX_STRING_BYTES_KEY = "events.decode.max-string-bytes";
    public static final String MAX_COLLECTION_ITEMS_KEY = "events.decode.max-collection-items";

    /**
     * 1 MiB records (Kafka's default message size), 256 KiB strings, 100 000 items: far above any event
     * pinfeed writes (a FanoutChunk of 10 000 receivers is about 110 KB, a reorder at most 5 000 pins).
     */
    public static final DecodeLimits DEFAULTS = new DecodeLimits(1 << 20, 256 << 10, 100_000);

    public DecodeLimits {
        positive(MAX_RECORD_BYTES_KEY, maxRecordBytes);
        positive(MAX_STRING_BYTES_KEY, maxStringBytes);
        positive(MAX_COLLECTION_ITEMS_KEY, maxCollectionItems);
    }

    /** The limits of {@code config}, each key defaulting to {@link #DEFAULTS}. */
    public static DecodeLimits from(PinfeedConfig config) {
        return new DecodeLimits(config.getInt(MAX_RECORD_BYTES_KEY, DEFAULTS.maxRecordBytes),
                config.getInt(MAX_STRING_BYTES_KEY, DEFAULTS.maxStringBytes),
                config.getInt(MAX_COLLECTION_ITEMS_KEY, DEFAULTS.maxCollectionItems));
    }

    void checkRecord(int bytes) {
        if (bytes > maxRecordBytes) throw exceeded("record of " + bytes + " bytes", maxRecordBytes, MAX_RECORD_BYTES_KEY);
    }

    /** {@code length} as an int, once within the limit; {@code kind} is "string" or "bytes". */
    int checkLength(String kind, long length) {
        if (length > maxStringBytes) throw exceeded(kind + " of " + length + " bytes", maxStringBytes, MAX_STRING_BYTES_KEY);
        return (int) length;
    }

    /** {@code items}: all items of one collection so far; {@code kind} is "array" or "map". */
    void checkItems(String kind, long items) {
        if (items > maxCollectionItems) throw exceeded(kind + " of " + items + " items", maxCollectionItems, MAX_COLLECTION_ITEMS_KEY);
    }

    private static DecodeLimitException exceeded(String what, int limit, String key) {
        return new DecodeLimitException(what + " exceeds the limit of " + limit + " (" + key + ")");
    }

    private static void positive(String key, int value) {
        if (value < 1) throw new IllegalArgumentException(key + " must be at least 1: " + value);
    }
}
