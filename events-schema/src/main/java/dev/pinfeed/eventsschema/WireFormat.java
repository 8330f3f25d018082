package dev.pinfeed.eventsschema;

/** Confluent's framing: magic byte 0, the 4-byte big-endian schema id, then the Avro binary body. */
final class WireFormat {

    static final byte MAGIC_BYTE = 0;
    static final int HEADER_LENGTH = 1 + Integer.BYTES;

    private WireFormat() {}
}
