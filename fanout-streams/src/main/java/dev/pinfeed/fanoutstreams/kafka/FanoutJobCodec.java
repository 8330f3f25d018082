package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.fanoutstreams.FanoutJob;
import dev.pinfeed.followergraph.Receiver;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The one owner of the job store's layout. Key: the pin id (Kafka's 8-byte big-endian long, so the
 * store iterates pins in id order: the round-robin walks that order). Value: version 4 =
 * <pre>
 * 0x04 action(1: 0 ADD, 1 REMOVE) eventId(8) occurredAt(8) pinId(8) boardId(8) authorId(8) pinCreatedAt(8)
 * nextChunkIndex(4) exhausted(1) hasCursor(1) [cursor(utf)] failures(4)
 * buffered count(4) then per receiver userId(8) flags(1: bit 0 viaOwner, bit 1 viaInterest)
 * origin: topic(utf) partition(4) offset(8) key(len 4, -1 = null, bytes) value(len 4, -1 = null, bytes)
 *         header count(4) then per header name(utf) value(len 4, -1 = null, bytes)
 * parentPinId(8, 0 = not a repin)
 * interest count(4) then per interest id(8)
 * </pre>
 * Version 3 is the same without the interests (read as none; its receivers' flag byte is viaOwner as a boolean, which bit 0
 * reads alike), version 2 also without parentPinId (read as 0), version 1 also without the origin's headers (read as none). The
 * store's changelog carries these bytes, so a new layout must read every older one.
 */
public final class FanoutJobCodec {

    private static final byte VERSION = 4;
    private static final byte VERSION_WITHOUT_INTERESTS = 3;
    private static final byte VERSION_WITHOUT_PARENT = 2;
    private static final byte VERSION_WITHOUT_HEADERS = 1;

    public static final Serde<Long> KEY_SERDE = Serdes.Long();
    public static final Serde<FanoutJob> VALUE_SERDE = Serdes.serdeFrom(
            (Serializer<FanoutJob>) (topic, job) -> job == null ? null : encode(job),
            (Deserializer<FanoutJob>) (topic, bytes) -> bytes == null ? null : decode(bytes));

    private FanoutJobCodec() {}

    public static byte[] encode(FanoutJob job) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(96 + 9 * job.buffered().size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeByte(job.action() == FanoutAction.ADD ? 0 : 1);
            out.writeLong(job.eventId());
            out.writeLong(job.occurredAt());
            out.writeLong(job.pinId());
            out.writeLong(job.boardId());
            out.writeLong(job.authorId());
            out.writeLong(job.pinCreatedAt());
            out.writeInt(job.nextChunkIndex());
            out.writeBoolean(job.exhausted());
            out.writeBoolean(job.cursor() != null);
            if (job.cursor() != null) out.writeUTF(job.cursor());
            out.writeInt(job.failures());
            out.writeInt(job.buffered().size());
            for (Receiver r : job.buffered()) {
                out.writeLong(r.userId());
                out.writeByte((r.viaOwner() ? 1 : 0) | (r.viaInterest() ? 2 : 0));
            }
            FanoutJob.Origin o = job.origin();
            out.writeUTF(o.topic());
            out.writeInt(o.partition());
            out.writeLong(o.offset());
            writeBytes(out, o.key());
            writeBytes(out, o.value());
            out.writeInt(o.headers().size());
            for (FanoutJob.Header h : o.headers()) {
                out.writeUTF(h.name());
                writeBytes(out, h.value());
            }
            out.writeLong(job.parentPinId());
            out.writeInt(job.interestIds().size());
            for (long interest : job.interestIds()) out.writeLong(interest);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    public static FanoutJob decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            byte version = in.readByte();
            if (version != VERSION && version != VERSION_WITHOUT_INTERESTS && version != VERSION_WITHOUT_PARENT
                    && version != VERSION_WITHOUT_HEADERS) {
                throw new IllegalArgumentException("unknown fan-out job layout version " + version);
            }
            FanoutAction action = in.readByte() == 0 ? FanoutAction.ADD : FanoutAction.REMOVE;
            long eventId = in.readLong();
            long occurredAt = in.readLong();
            long pinId = in.readLong();
            long boardId = in.readLong();
            long authorId = in.readLong();
            long pinCreatedAt = in.readLong();
            int next = in.readInt();
            boolean exhausted = in.readBoolean();
            String cursor = in.readBoolean() ? in.readUTF() : null;
            int failures = in.readInt();
            int n = in.readInt();
            List<Receiver> buffered = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                long user = in.readLong();
                int flags = in.readUnsignedByte();
                buffered.add(new Receiver(user, (flags & 1) != 0, (flags & 2) != 0));
            }
            String topic = in.readUTF();
            int partition = in.readInt();
            long offset = in.readLong();
            byte[] key = readBytes(in);
            byte[] value = readBytes(in);
            List<FanoutJob.Header> headers = new ArrayList<>();
            if (version >= VERSION_WITHOUT_PARENT) {
                int count = in.readInt();
                for (int i = 0; i < count; i++) headers.add(new FanoutJob.Header(in.readUTF(), readBytes(in)));
            }
            FanoutJob.Origin origin = new FanoutJob.Origin(topic, partition, offset, key, value, headers);
            long parentPinId = version >= VERSION_WITHOUT_INTERESTS ? in.readLong() : 0;
            List<Long> interests = new ArrayList<>();
            if (version >= VERSION) {
                int count = in.readInt();
                for (int i = 0; i < count; i++) interests.add(in.readLong());
            }
            return new FanoutJob(action, eventId, occurredAt, pinId, boardId, authorId, pinCreatedAt, next,
                    cursor, exhausted, buffered, failures, origin, parentPinId, interests);
        } catch (IOException e) {
            throw new IllegalArgumentException("corrupt fan-out job (" + bytes.length + " bytes): " + e, e);
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b == null ? -1 : b.length);
        if (b != null) out.write(b);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) return null;
        return in.readNBytes(n);
    }
}
