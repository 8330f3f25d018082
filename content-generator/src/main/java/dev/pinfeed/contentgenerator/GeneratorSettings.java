package dev.pinfeed.contentgenerator;

import dev.pinfeed.feedstore.Source;
import java.util.EnumMap;
import java.util.Map;

/**
 * How the content generator composes a chunk (seed 002's design values): the share of each source
 * in a chunk ({@code mix}), and per source the score under which a pin is held back for a later
 * session ({@code deferBelow}: it stays in the pool) or dropped for good ({@code dropBelow}: taken
 * out of the pool without being shown).
 */
public record GeneratorSettings(Map<Source, Double> mix, Map<Source, Double> deferBelow, Map<Source, Double> dropBelow) {

    public GeneratorSettings {
        mix = Map.copyOf(mix);
        deferBelow = Map.copyOf(deferBelow);
        dropBelow = Map.copyOf(dropBelow);
        double total = mix.values().stream().mapToDouble(Double::doubleValue).sum();
        if (mix.isEmpty() || mix.values().stream().anyMatch(r -> r < 0) || total <= 0) {
            throw new IllegalArgumentException("mix rates must be >= 0 and not all 0: " + mix);
        }
        for (Source s : Source.values()) {
            if (dropBelow.getOrDefault(s, 0.0) > deferBelow.getOrDefault(s, 0.0)) {
                throw new IllegalArgumentException(s + ": dropBelow must not exceed deferBelow");
            }
        }
    }

    /** Followed users and followed boards 60/40; nothing deferred or dropped. */
    public static GeneratorSettings defaults() {
        Map<Source, Double> mix = new EnumMap<>(Source.class);
        mix.put(Source.FOLLOWED_USER, 0.6);
        mix.put(Source.FOLLOWED_BOARD, 0.4);
        return new GeneratorSettings(mix, Map.of(), Map.of());
    }

    double share(Source s) {
        double total = mix.values().stream().mapToDouble(Double::doubleValue).sum();
        return mix.getOrDefault(s, 0.0) / total;
    }
}
