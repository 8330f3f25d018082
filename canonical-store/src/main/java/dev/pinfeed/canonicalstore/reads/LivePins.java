package dev.pinfeed.canonicalstore.reads;

import java.util.Collection;
import java.util.Map;

/** The live pins among some ids, in one batch: what a feed page's hydration needs of the canonical store. */
@FunctionalInterface
public interface LivePins {

    /** The live pins among {@code pinIds}, by id; deleted and unknown ids are absent. */
    Map<Long, CanonicalPin> livePins(Collection<Long> pinIds);
}
