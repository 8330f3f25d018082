package dev.pinfeed.httpkit;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A value serialized once by the shared mapper and written as it is into every JSON body that holds it: for a value many
 * responses repeat, such as a pin that every feed page showing it carries. Its UTF-8 bytes are made on first use and kept.
 */
public final class JsonFragment implements JsonSerializable {

    private final SerializedString json;

    private JsonFragment(String json) {
        this.json = new SerializedString(json);
    }

    /** {@code value} serialized as {@link Response#json} would serialize it. */
    public static JsonFragment of(Object value) {
        try {
            return new JsonFragment(Json.MAPPER.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot serialize " + value.getClass().getSimpleName(), e);
        }
    }

    /** The JSON text. */
    public String json() {
        return json.getValue();
    }

    @Override
    public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
        gen.writeRawValue(json);
    }

    @Override
    public void serializeWithType(JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer) throws IOException {
        serialize(gen, serializers);
    }

    @Override
    public String toString() {
        return json.getValue();
    }
}
