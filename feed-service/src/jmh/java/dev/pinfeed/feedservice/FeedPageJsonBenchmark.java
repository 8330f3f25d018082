package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.httpkit.JsonFragment;
import dev.pinfeed.httpkit.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A feed page's body, 25 items of demo-like pins: {@code pinsWrittenInPlace} builds each item's contract pin and lets
 * Jackson write it (feed pages before {@link PinFragments}); {@code pinFragments} writes the pins' kept JSON (every pin
 * seen before, as on a page whose pins other pages showed), the page writing itself member by member;
 * {@code pinFragmentsBeanSerialized} the same fragments in records written by Jackson's bean serializer; {@code rawCopy} the baseline, a copy of the finished body
 * (the least any writer of these bytes does).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
public class FeedPageJsonBenchmark {

    private record PlainItem(CanonicalHttpApi.PinJson pin, String source, double score) {}

    private record PlainPage(List<PlainItem> items, String cursor) {}

    private record FragmentItem(JsonFragment pin, String source, double score) {}

    private record FragmentPage(List<FragmentItem> items, String cursor) {}

    private PinFragments fragments;

    private List<HomeFeed.Item> items;
    private HomeFeedHttpApi api;
    private byte[] body;

    @Setup(Level.Trial)
    public void page() {
        items = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            long id = 0x0123_4567_0000_0000L + i * 7919L;
            CanonicalPin pin = new CanonicalPin(id, id + 1, id + 2, "Pin " + i + " of a demo board about gardens and tools", null,
                    "https://img.example/pins/" + id + ".jpg", Instant.parse("2026-11-28T10:15:30.123Z").plusSeconds(i), 3L * i, i, i % 3 == 0 ? null : id - 1,
                    i / 2, List.of(101L, 102L + i));
            items.add(new HomeFeed.Item(pin, Source.values()[i % Source.values().length], 1.0 / (i + 3)));
        }
        fragments = new PinFragments(1_000, CacheListener.NONE);
        api = new HomeFeedHttpApi(null, null, null, fragments);
        body = pinFragments();
        if (!Arrays.equals(body, pinsWrittenInPlace()) || !Arrays.equals(body, pinFragmentsBeanSerialized()))
            throw new IllegalStateException("the bodies differ");
    }

    @Benchmark
    public byte[] pinsWrittenInPlace() {
        List<PlainItem> plain = items.stream().map(i -> new PlainItem(CanonicalHttpApi.pin(i.pin()), i.source().wireName(), i.score())).toList();
        return Response.json(200, new PlainPage(plain, "AQAAAAAAAAAqAAAAGA")).bodyBytes();
    }

    @Benchmark
    public byte[] pinFragmentsBeanSerialized() {
        List<JsonFragment> pins = fragments.of(items.stream().map(HomeFeed.Item::pin).toList());
        List<FragmentItem> page = new ArrayList<>(pins.size());
        for (int k = 0; k < pins.size(); k++) page.add(new FragmentItem(pins.get(k), items.get(k).source().wireName(), items.get(k).score()));
        return Response.json(200, new FragmentPage(page, "AQAAAAAAAAAqAAAAGA")).bodyBytes();
    }

    @Benchmark
    public byte[] pinFragments() {
        return Response.json(200, api.pageJson(new HomeFeed.Page(items, "AQAAAAAAAAAqAAAAGA"))).bodyBytes();
    }

    @Benchmark
    public byte[] rawCopy() {
        return Arrays.copyOf(body, body.length);
    }
}
