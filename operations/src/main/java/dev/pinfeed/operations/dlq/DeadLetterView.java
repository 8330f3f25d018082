package dev.pinfeed.operations.dlq;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;

/**
 * How one dead letter reads to an operator ({@code dlq show}, the lines of {@code dlq list --ids}): where it came
 * from, why, whether it was redriven or failed again after a redrive, every header, the key, and the value
 * decoded through the schema registry when it decodes (else its first {@value #HEX_BYTES} bytes in hex).
 */
public final class DeadLetterView {

    static final int HEX_BYTES = 256;
    static final ObjectMapper JSON = new ObjectMapper();

    private DeadLetterView() {}

    /** {@code 1 dead letter}, {@code 3 dead letters}. */
    public static String deadLetters(long n) {
        return n + (n == 1 ? " dead letter" : " dead letters");
    }

    /** What became of it: failed again after a redrive, redriven ({@code entry} from the redrive log), or not redriven. */
    public static String state(DeadLetter d, RedriveLog.Entry entry) {
        if (d.failedAgainAfterRedrive()) return "failed again after redrive of " + d.redrivenFrom().orElseThrow();
        if (entry != null) return "redriven at " + entry.at() + " to " + entry.redrivenTo();
        return "not redriven";
    }

    static String stateCode(DeadLetter d, RedriveLog.Entry entry) {
        if (d.failedAgainAfterRedrive()) return "failed-again-after-redrive";
        return entry != null ? "redriven" : "not-redriven";
    }

    /** The fields {@code list --ids} and {@code show} share, as JSON. */
    static ObjectNode summaryJson(DeadLetter d, RedriveLog.Entry entry) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", d.id().toString());
        o.put("time", d.time().toString());
        o.put("processor", d.processor());
        o.put("sourceTopic", d.sourceTopic());
        o.put("source", d.source());
        o.put("reason", d.reason());
        o.put("error", d.error());
        o.put("state", stateCode(d, entry));
        o.put("redrivenFrom", d.redrivenFrom().orElse(null));
        o.put("redrivenAt", entry == null ? null : entry.at().toString());
        o.put("redrivenTo", entry == null ? null : entry.redrivenTo());
        return o;
    }

    /** {@code dlq show ID --json}. */
    public static String json(String topic, DeadLetter d, RedriveLog.Entry entry, Function<byte[], SpecificRecord> decoder) {
        ObjectNode o = summaryJson(d, entry);
        o.put("topic", topic);
        ArrayNode headers = o.putArray("headers");
        for (DeadLetter.HeaderValue h : d.headers()) headers.addObject().put("name", h.name()).put("value", readable(h.value()));
        o.put("key", readable(d.key()));
        Decoded value = decode(d.value(), decoder);
        o.put("valueType", value.type());
        o.set("value", value.json());
        o.put("valueHex", value.hex());
        o.put("valueBytes", d.value() == null ? 0 : d.value().length);
        o.put("decodeError", value.error());
        return o.toString();
    }

    /** {@code dlq show ID}. */
    public static String text(String topic, DeadLetter d, RedriveLog.Entry entry, Function<byte[], SpecificRecord> decoder) {
        StringBuilder sb = new StringBuilder();
        sb.append("dead letter ").append(d.id()).append(" of ").append(topic).append('\n');
        line(sb, "time", d.time().toString());
        line(sb, "processor", d.processor());
        line(sb, "source", d.source());
        line(sb, "reason", d.reason());
        line(sb, "error", String.valueOf(d.error()));
        line(sb, "state", state(d, entry));
        sb.append("headers:\n");
        for (DeadLetter.HeaderValue h : d.headers()) sb.append("  ").append(h.name()).append(": ").append(readable(h.value())).append('\n');
        line(sb, "key", String.valueOf(readable(d.key())));
        Decoded value = decode(d.value(), decoder);
        if (value.json() != null) {
            line(sb, "value", value.type());
            try {
                sb.append(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(value.json())).append('\n');
            } catch (JsonProcessingException e) {
                sb.append(value.json()).append('\n');
            }
        } else if (d.value() == null) {
            line(sb, "value", "none (a tombstone)");
        } else {
            line(sb, "value", d.value().length + " bytes, not decodable (" + value.error() + ")");
            sb.append("  hex").append(d.value().length > HEX_BYTES ? " (first " + HEX_BYTES + " bytes)" : "").append(": ").append(value.hex()).append('\n');
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String label, String value) {
        sb.append(String.format("%-10s %s%n", label + ":", value));
    }

    /** The value decoded, or why not with its first bytes in hex. */
    record Decoded(String type, JsonNode json, String hex, String error) {}

    static Decoded decode(byte[] value, Function<byte[], SpecificRecord> decoder) {
        if (value == null) return new Decoded(null, null, null, "no value");
        try {
            SpecificRecord event = decoder.apply(value);
            if (event != null) return new Decoded(event.getSchema().getFullName(), AvroJson.of(event), null, null);
        } catch (RuntimeException e) {
            return new Decoded(null, null, hex(value), oneLine(e));
        }
        return new Decoded(null, null, hex(value), "no value");
    }

    static String hex(byte[] value) {
        return HexFormat.of().formatHex(Arrays.copyOf(value, Math.min(value.length, HEX_BYTES)));
    }

    /** Bytes as their UTF-8 text when they are printable text, else {@code hex:...}. */
    static String readable(byte[] bytes) {
        if (bytes == null) return null;
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            if (text.chars().noneMatch(c -> Character.isISOControl(c) && c != '\t')) return text;
        } catch (CharacterCodingException e) {
            // not text
        }
        return "hex:" + hex(bytes);
    }

    private static String oneLine(Throwable e) {
        String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = msg.indexOf('\n');
        return nl < 0 ? msg : msg.substring(0, nl);
    }
}
