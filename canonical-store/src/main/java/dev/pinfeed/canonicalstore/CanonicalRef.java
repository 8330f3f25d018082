package dev.pinfeed.canonicalstore;

import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;

/**
 * A row a change depends on (a pin's board, a like's pin, a reordered board's pins) or provides: an
 * object row, or a mapping row. Exists = the row is there, whatever its flags (a deleted pin still
 * exists: a like of it applies).
 */
public sealed interface CanonicalRef {

    /** The logical shard whose database holds the row. */
    int shard();

    /** For messages: "pin 123", "board_has_pins 4 → 5". */
    String describe();

    static CanonicalRef object(String table, long id) {
        return new ObjectRow(table, id);
    }

    static CanonicalRef mapping(Mapping mapping, long from, long to) {
        return new MappingRow(mapping, from, to);
    }

    record ObjectRow(String table, long id) implements CanonicalRef {
        @Override
        public int shard() {
            return CanonicalIds.shardOf(id);
        }

        @Override
        public String describe() {
            return CanonicalIds.typeOf(table).typeName() + " " + id;
        }
    }

    record MappingRow(Mapping mapping, long from, long to) implements CanonicalRef {
        @Override
        public int shard() {
            return CanonicalIds.shardOf(from);
        }

        @Override
        public String describe() {
            return mapping.table() + " " + from + " → " + to;
        }
    }
}
