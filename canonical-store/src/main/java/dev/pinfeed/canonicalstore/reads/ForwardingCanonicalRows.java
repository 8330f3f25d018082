package dev.pinfeed.canonicalstore.reads;

import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.idallocator.ObjectType;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** Canonical reads over another store's rows, every call forwarded: subclasses override what they cache, watch or delay. */
public class ForwardingCanonicalRows extends CanonicalRowReads {

    private final CanonicalRows delegate;

    public ForwardingCanonicalRows(CanonicalRows delegate) {
        this.delegate = delegate;
    }

    /** The store every call is forwarded to. */
    protected final CanonicalRows delegate() {
        return delegate;
    }

    @Override
    public Map<Long, String> objects(ObjectType type, Collection<Long> ids) {
        return delegate.objects(type, ids);
    }

    @Override
    public Map<Long, PinRow> pins(Collection<Long> pinIds) {
        return delegate.pins(pinIds);
    }

    @Override
    public List<ListEntry> boardPins(long boardId, BoardPinOrder order, ListEntry after, int offset, int limit) {
        return delegate.boardPins(boardId, order, after, offset, limit);
    }

    @Override
    public List<ListEntry> newestFirst(Mapping mapping, long fromId, ListEntry after, int limit) {
        return delegate.newestFirst(mapping, fromId, after, limit);
    }

    @Override
    public Map<Long, List<ListEntry>> newestFirstOfEach(Mapping mapping, Collection<Long> fromIds, int limit) {
        return delegate.newestFirstOfEach(mapping, fromIds, limit);
    }

    @Override
    public long count(Mapping mapping, long fromId) {
        return delegate.count(mapping, fromId);
    }

    @Override
    public OptionalLong userIdByUsername(String username) {
        return delegate.userIdByUsername(username);
    }
}
