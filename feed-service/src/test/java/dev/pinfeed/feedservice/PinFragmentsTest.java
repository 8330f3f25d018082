package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.canonicalstore.reads.CountingCacheListener;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.httpkit.JsonFragment;
import dev.pinfeed.httpkit.Response;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PinFragmentsTest {

    private static CanonicalPin pin(long id, long likes) {
        return new CanonicalPin(id, 7, 9, "a \"quoted\" détail\n", null, "https://img/" + id, Instant.parse("2026-11-30T01:02:03.456Z"),
                likes, 2, id == 1 ? null : 1L, 3, List.of(11L, 12L));
    }

    private static String json(Object body) {
        return new String(Response.json(200, body).bodyBytes(), StandardCharsets.UTF_8);
    }

    /** The page as it was written before fragments: the contract's pin record in each item. */
    private record PlainItem(CanonicalHttpApi.PinJson pin, String source, double score) {}

    private record PlainPage(List<PlainItem> items, String cursor) {}

    @Test
    void aPageWithFragmentsIsByteForByteThePageWithThePinsWrittenInPlace() {
        PinFragments fragments = new PinFragments(100, CacheListener.NONE);
        List<HomeFeed.Item> items = List.of(new HomeFeed.Item(pin(1, 5), Source.INTERESTS, 0.25),
                new HomeFeed.Item(pin(2, 0), Source.RELATED, 1e-7));
        HomeFeedHttpApi api = new HomeFeedHttpApi(null, null, null, fragments);

        String withFragments = json(api.pageJson(new HomeFeed.Page(items, "c")));
        String plain = json(new PlainPage(items.stream()
                .map(i -> new PlainItem(CanonicalHttpApi.pin(i.pin()), i.source().wireName(), i.score())).toList(), "c"));

        assertThat(withFragments).isEqualTo(plain).contains("\"likes\":5").contains("\"parentPinId\":null");
    }

    /** The page as the bean serializer wrote it before it wrote itself: the pins' fragments in records. */
    private record FragmentItem(JsonFragment pin, String source, double score) {}

    private record FragmentPage(List<FragmentItem> items, String cursor) {}

    @Test
    void aPageWritesTheBytesTheBeanSerializerWrote() {
        PinFragments fragments = new PinFragments(100, CacheListener.NONE);
        HomeFeedHttpApi api = new HomeFeedHttpApi(null, null, null, fragments);
        List<HomeFeed.Item> items = List.of(new HomeFeed.Item(pin(1, 5), Source.INTERESTS, 0.9986488994979276),
                new HomeFeed.Item(pin(2, 0), Source.RELATED, 1e-7), new HomeFeed.Item(pin(3, 1), Source.FOLLOWED_USER, 42.0));
        for (String cursor : java.util.Arrays.asList("AQAAAAAAAAAqAAAAGA", "a \"quoted\" \\ cursor", null)) {
            for (List<HomeFeed.Item> page : List.of(items, List.<HomeFeed.Item>of())) {
                String written = json(api.pageJson(new HomeFeed.Page(page, cursor)));
                List<JsonFragment> pins = fragments.of(page.stream().map(HomeFeed.Item::pin).toList());
                List<FragmentItem> beanItems = new java.util.ArrayList<>();
                for (int k = 0; k < page.size(); k++) beanItems.add(new FragmentItem(pins.get(k), page.get(k).source().wireName(), page.get(k).score()));
                String bean = json(new FragmentPage(beanItems, cursor));
                assertThat(written).as("cursor %s, %d items", cursor, page.size()).isEqualTo(bean);
            }
        }
        assertThat(json(api.pageJson(new HomeFeed.Page(List.of(), null)))).isEqualTo("{\"items\":[],\"cursor\":null}");
    }

    private final CountingCacheListener listener = new CountingCacheListener();

    private static JsonFragment one(PinFragments fragments, CanonicalPin pin) {
        return fragments.of(List.of(pin)).get(0);
    }

    @Test
    void aPinIsSerializedOncePerVersion() {
        PinFragments fragments = new PinFragments(100, listener);
        CanonicalPin first = pin(1, 5);

        assertThat(one(fragments, first)).isSameAs(one(fragments, first)).isSameAs(one(fragments, pin(1, 5)));
        JsonFragment liked = one(fragments, pin(1, 6));
        assertThat(liked.json()).contains("\"likes\":6");
        assertThat(one(fragments, pin(1, 6))).isSameAs(liked);
        assertThat(one(fragments, first).json()).contains("\"likes\":5");
        assertThat(listener.counts()).containsEntry("pin_json hits", 3).containsEntry("pin_json misses", 3);
    }

    @Test
    void pastItsBoundItKeepsNoMoreThanItsMax() {
        PinFragments fragments = new PinFragments(2, listener);
        for (long id = 1; id <= 5; id++) {
            one(fragments, pin(id, 0));
            assertThat(fragments.size()).isBetween(1, 2);
        }
        assertThatThrownBy(() -> new PinFragments(0, listener)).hasMessageContaining("max");
    }
}
