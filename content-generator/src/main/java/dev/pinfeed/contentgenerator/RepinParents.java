package dev.pinfeed.contentgenerator;

import java.util.Collection;
import java.util.Map;

/**
 * Which pin each repin was saved from (the canonical pins' {@code parentPinId}), for the content generator's
 * one-parent-per-feed rule. Outages throw {@link dev.pinfeed.config.StoreUnavailableException}.
 */
@FunctionalInterface
public interface RepinParents {

    /** Nothing is a repin: the generator then dedups nothing. */
    RepinParents NONE = pinIds -> Map.of();

    /** The parent of each repin among {@code pinIds}; originals and unknown pins are absent. */
    Map<Long, Long> parentsOf(Collection<Long> pinIds);
}
