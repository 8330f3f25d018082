package dev.pinfeed.fanoutstreams.related;

/** A key-value state the core reads and writes (a Kafka Streams store at the edge, a map in tests); absent = null. */
public interface RelatedState<V> {

    V get(long key);

    void put(long key, V value);

    void delete(long key);
}
