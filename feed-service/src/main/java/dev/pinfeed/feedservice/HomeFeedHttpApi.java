package dev.pinfeed.feedservice;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import dev.pinfeed.feedservice.homefeed.FeedCursor;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.JsonFragment;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.Request;
import dev.pinfeed.httpkit.Response;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /v1/users/{userId}/feed?limit&cursor}: the home feed ({@link HomeFeed}) as the contract
 * has it, {@code {"items": [{"pin", "source", "score"}], "cursor"}}; 404 for an unknown user, 400
 * naming {@code userId}, {@code limit} or {@code cursor}; a store outage is 503 naming the store.
 * The owner's token reads it with its side effects, a service's token without ({@link ReaderAuth}).
 */
public final class HomeFeedHttpApi {

    private final HomeFeed feed;
    private final KnownObjects known;
    private final ReaderAuth auth;
    private final PinFragments pins;

    HomeFeedHttpApi(HomeFeed feed, KnownObjects known, ReaderAuth auth, PinFragments pins) {
        this.feed = feed;
        this.known = known;
        this.auth = auth;
        this.pins = pins;
    }

    public HttpApp.Builder routes(HttpApp.Builder app) {
        app.route("GET", "/v1/users/{userId}/feed", auth.privateRead(0), this::read);
        return app;
    }

    private Response read(Request r) {
        ReaderAuth.Reader reader = ReaderAuth.reader(r, known);
        int limit = Params.limit(r);
        HomeFeed.Page page;
        try {
            // Only the owner's own reads journal, record his read and mark him active; a service only looks.
            page = reader.access() == ReaderAuth.Access.OWNER ? feed.read(reader.userId(), Params.cursor(r), limit)
                    : feed.peek(reader.userId(), Params.cursor(r), limit);
        } catch (FeedCursor.BadCursorException e) {
            throw new ProblemException(Problem.badRequest("cursor", e.getMessage()));
        }
        return Response.json(200, pageJson(page));
    }

    PageJson pageJson(HomeFeed.Page page) {
        List<JsonFragment> json = pins.of(page.items().stream().map(HomeFeed.Item::pin).toList());
        List<ItemJson> items = new ArrayList<>(json.size());
        for (int k = 0; k < json.size(); k++) {
            HomeFeed.Item i = page.items().get(k);
            items.add(new ItemJson(json.get(k), i.source().wireName(), i.score()));
        }
        return new PageJson(items, page.cursor());
    }

    /**
     * The contract's page and item, members in this order. The page writes itself member by member with pre-encoded
     * names: Jackson's bean serializer (an accessor called by reflection per member, the names quoted on every page) was a
     * fifth of the feed-service's CPU on pages answered from memory. The bytes are the bean serializer's
     * ({@code PinFragmentsTest}).
     */
    record PageJson(List<ItemJson> items, String cursor) implements JsonSerializable {

        private static final SerializedString ITEMS = new SerializedString("items");
        private static final SerializedString PIN = new SerializedString("pin");
        private static final SerializedString SOURCE = new SerializedString("source");
        private static final SerializedString SCORE = new SerializedString("score");
        private static final SerializedString CURSOR = new SerializedString("cursor");

        @Override
        public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeStartObject();
            gen.writeFieldName(ITEMS);
            gen.writeStartArray();
            for (ItemJson item : items) {
                gen.writeStartObject();
                gen.writeFieldName(PIN);
                item.pin().serialize(gen, serializers);
                gen.writeFieldName(SOURCE);
                gen.writeString(item.source());
                gen.writeFieldName(SCORE);
                gen.writeNumber(item.score());
                gen.writeEndObject();
            }
            gen.writeEndArray();
            gen.writeFieldName(CURSOR);
            if (cursor == null) gen.writeNull();
            else gen.writeString(cursor);
            gen.writeEndObject();
        }

        @Override
        public void serializeWithType(JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer) throws IOException {
            serialize(gen, serializers);
        }
    }

    /** {@code pin}: the contract's pin ({@link CanonicalHttpApi.PinJson}), serialized once per version of the pin. */
    record ItemJson(JsonFragment pin, String source, double score) {}
}
