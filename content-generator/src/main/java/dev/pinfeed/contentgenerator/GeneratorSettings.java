package dev.pinfeed.contentgenerator;

import dev.pinfeed.config.PinfeedConfig;
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

    /**
     * Followed users 40 %, followed boards 25 %, interests 15 %, repins 10 %, related pins 10 %: what the reader chose
     * to follow leads, the interests he follows come next, second-hand pins (repins) and recommendations (related)
     * fill gaps. Nothing deferred or dropped. A source whose pool runs dry leaves its slots to the others, so a
     * reader without repins, interests or related pins still gets full chunks.
     */
    public static GeneratorSettings defaults() {
        Map<Source, Double> mix = new EnumMap<>(Source.class);
        mix.put(Source.FOLLOWED_USER, 0.4);
        mix.put(Source.FOLLOWED_BOARD, 0.25);
        mix.put(Source.INTERESTS, 0.15);
        mix.put(Source.REPINS, 0.1);
        mix.put(Source.RELATED, 0.1);
        return new GeneratorSettings(mix, Map.of(), Map.of());
    }

    /**
     * Per source (its wire name): {@code feed.mix.<source>} (the defaults above),
     * {@code feed.defer-below.<source>} and {@code feed.drop-below.<source>} (0: nothing held back).
     */
    public static GeneratorSettings from(PinfeedConfig config) {
        GeneratorSettings d = defaults();
        Map<Source, Double> mix = new EnumMap<>(Source.class);
        Map<Source, Double> defer = new EnumMap<>(Source.class);
        Map<Source, Double> drop = new EnumMap<>(Source.class);
        for (Source s : Source.values()) {
            mix.put(s, number(config, "feed.mix." + s.wireName(), d.mix().getOrDefault(s, 0.0)));
            defer.put(s, number(config, "feed.defer-below." + s.wireName(), 0.0));
            drop.put(s, number(config, "feed.drop-below." + s.wireName(), 0.0));
        }
        return new GeneratorSettings(mix, defer, drop);
    }

    private static double number(PinfeedConfig config, String key, double fallback) {
        String text = config.get(key, Double.toString(fallback));
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number: " + text);
        }
    }

    double share(Source s) {
        double total = mix.values().stream().mapToDouble(Double::doubleValue).sum();
        return mix.getOrDefault(s, 0.0) / total;
    }
}
