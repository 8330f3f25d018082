package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.fanoutstreams.related.BoardPins;
import dev.pinfeed.fanoutstreams.related.PinBoards;
import dev.pinfeed.fanoutstreams.related.RelatedMessage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The bytes of the related-pins application (the one owner of these layouts), all big-endian, each value led by a
 * version byte (1):
 * <pre>
 * repartition topics &lt;application id&gt;-by-pin-repartition / -by-board-repartition: key = pin / board id (8-byte long), value =
 *   1 type(1) fields:  1 Created  pin board author createdAt parent        2 Saved  pin board user eventId occurredAt
 *                      3 Deleted  pin                                        4 Liked  pin user eventId occurredAt
 *                      5 Joined   board pin pinBoard author createdAt        6 Left   board pin
 *                      7 Asked    board subject alsoExcluded user eventId occurredAt limit(4)
 * store related-pin-boards   (key = pin id, 8-byte long):   1 known(1) author board createdAt parent n(4) board(8)×n
 * store related-board-pins   (key = board id, 8-byte long): 1 n(4) (pin board author createdAt)×n
 * </pre>
 * Every other field is an 8-byte long. Changelogs: {@code <application id>-related-pin-boards-changelog},
 * {@code <application id>-related-board-pins-changelog}.
 */
public final class RelatedCodec {

    private static final byte VERSION = 1;

    private RelatedCodec() {}

    public static final Serde<Long> KEY_SERDE = Serdes.Long();

    public static final Serde<RelatedMessage> MESSAGE_SERDE = Serdes.serdeFrom((topic, m) -> m == null ? null : encode(m),
            (topic, bytes) -> bytes == null ? null : decodeMessage(bytes));

    public static final Serde<PinBoards> PIN_BOARDS_SERDE = Serdes.serdeFrom((topic, p) -> p == null ? null : encode(p),
            (topic, bytes) -> bytes == null ? null : decodePinBoards(bytes));

    public static final Serde<BoardPins> BOARD_PINS_SERDE = Serdes.serdeFrom((topic, b) -> b == null ? null : encode(b),
            (topic, bytes) -> bytes == null ? null : decodeBoardPins(bytes));

    static byte[] encode(RelatedMessage m) {
        ByteBuffer b = ByteBuffer.allocate(2 + 7 * 8);
        b.put(VERSION);
        if (m instanceof RelatedMessage.Created c) {
            b.put((byte) 1).putLong(c.pinId()).putLong(c.boardId()).putLong(c.authorId()).putLong(c.createdAt()).putLong(c.parentPinId());
        } else if (m instanceof RelatedMessage.Saved s) {
            b.put((byte) 2).putLong(s.pinId()).putLong(s.boardId()).putLong(s.userId()).putLong(s.eventId()).putLong(s.occurredAt());
        } else if (m instanceof RelatedMessage.Deleted d) {
            b.put((byte) 3).putLong(d.pinId());
        } else if (m instanceof RelatedMessage.Liked l) {
            b.put((byte) 4).putLong(l.pinId()).putLong(l.userId()).putLong(l.eventId()).putLong(l.occurredAt());
        } else if (m instanceof RelatedMessage.Joined j) {
            b.put((byte) 5).putLong(j.boardId()).putLong(j.pin().pinId()).putLong(j.pin().boardId()).putLong(j.pin().authorId())
                    .putLong(j.pin().createdAt());
        } else if (m instanceof RelatedMessage.Left l) {
            b.put((byte) 6).putLong(l.boardId()).putLong(l.pinId());
        } else if (m instanceof RelatedMessage.Asked a) {
            b.put((byte) 7).putLong(a.boardId()).putLong(a.subjectPinId()).putLong(a.alsoExcluded()).putLong(a.userId()).putLong(a.eventId())
                    .putLong(a.occurredAt()).putInt(a.limit());
        } else {
            throw new IllegalArgumentException("unknown message " + m);
        }
        byte[] out = new byte[b.position()];
        System.arraycopy(b.array(), 0, out, 0, out.length);
        return out;
    }

    static RelatedMessage decodeMessage(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        version(b, "related message");
        byte type = b.get();
        return switch (type) {
            case 1 -> new RelatedMessage.Created(b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong());
            case 2 -> new RelatedMessage.Saved(b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong());
            case 3 -> new RelatedMessage.Deleted(b.getLong());
            case 4 -> new RelatedMessage.Liked(b.getLong(), b.getLong(), b.getLong(), b.getLong());
            case 5 -> new RelatedMessage.Joined(b.getLong(), new RelatedMessage.Member(b.getLong(), b.getLong(), b.getLong(), b.getLong()));
            case 6 -> new RelatedMessage.Left(b.getLong(), b.getLong());
            case 7 -> new RelatedMessage.Asked(b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getInt());
            default -> throw new IllegalArgumentException("unknown related message type " + type);
        };
    }

    static byte[] encode(PinBoards p) {
        ByteBuffer b = ByteBuffer.allocate(1 + 1 + 4 * 8 + 4 + 8 * p.boards().size());
        b.put(VERSION).put((byte) (p.known() ? 1 : 0)).putLong(p.authorId()).putLong(p.boardId()).putLong(p.createdAt()).putLong(p.parentPinId())
                .putInt(p.boards().size());
        for (long board : p.boards()) b.putLong(board);
        return b.array();
    }

    static PinBoards decodePinBoards(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        version(b, "pin boards");
        boolean known = b.get() == 1;
        long author = b.getLong();
        long board = b.getLong();
        long createdAt = b.getLong();
        long parent = b.getLong();
        int n = b.getInt();
        List<Long> boards = new ArrayList<>(n);
        for (int i = 0; i < n; i++) boards.add(b.getLong());
        return new PinBoards(known, author, board, createdAt, parent, boards);
    }

    static byte[] encode(BoardPins p) {
        ByteBuffer b = ByteBuffer.allocate(1 + 4 + 32 * p.pins().size());
        b.put(VERSION).putInt(p.pins().size());
        for (RelatedMessage.Member m : p.pins()) b.putLong(m.pinId()).putLong(m.boardId()).putLong(m.authorId()).putLong(m.createdAt());
        return b.array();
    }

    static BoardPins decodeBoardPins(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        version(b, "board pins");
        int n = b.getInt();
        List<RelatedMessage.Member> pins = new ArrayList<>(n);
        for (int i = 0; i < n; i++) pins.add(new RelatedMessage.Member(b.getLong(), b.getLong(), b.getLong(), b.getLong()));
        return new BoardPins(pins);
    }

    private static void version(ByteBuffer b, String what) {
        byte v = b.get();
        if (v != VERSION) throw new IllegalArgumentException("unknown " + what + " layout version " + v);
    }
}
