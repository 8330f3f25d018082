package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.CanonicalBoard;
import dev.pinfeed.canonicalstore.reads.CanonicalComment;
import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalUser;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.Request;
import dev.pinfeed.idallocator.ObjectType;
import java.util.Optional;

/**
 * The objects a request's path names, through {@link CanonicalReads} (cached): a well-formed id of
 * the right type that names nothing (or a deleted pin or comment) is 404 naming the path parameter. Every
 * route about a user, board, pin or comment starts here, the graph's included, so an unknown id never reads as zeros.
 */
final class KnownObjects {

    private final CanonicalReads reads;
    private final ExistingUserIds existingUsers;

    KnownObjects(CanonicalReads reads, ExistingUserIds existingUsers) {
        this.reads = reads;
        this.existingUsers = existingUsers;
    }

    CanonicalUser user(Request r, String field) {
        return user(Params.id(r, field, ObjectType.USER), field);
    }

    CanonicalBoard board(Request r, String field) {
        long id = Params.id(r, field, ObjectType.BOARD);
        return found(reads.board(id), field, "board", id);
    }

    CanonicalPin pin(Request r, String field) {
        long id = Params.id(r, field, ObjectType.PIN);
        return found(reads.pin(id), field, "pin", id);
    }

    CanonicalComment comment(Request r, String field) {
        long id = Params.id(r, field, ObjectType.COMMENT);
        return found(reads.comment(id), field, "comment", id);
    }

    dev.pinfeed.canonicalstore.reads.CanonicalInterest interest(Request r, String field) {
        long id = Params.id(r, field, ObjectType.INTEREST);
        return found(reads.interest(id), field, "interest", id);
    }

    long userId(Request r, String field) {
        long id = Params.id(r, field, ObjectType.USER);
        return existingUsers.contains(id) ? id : user(id, field).id();
    }

    private CanonicalUser user(long id, String field) {
        CanonicalUser user = found(reads.user(id), field, "user", id);
        existingUsers.add(id);
        return user;
    }

    long boardId(Request r, String field) {
        return board(r, field).id();
    }

    private static <T> T found(Optional<T> object, String field, String what, long id) {
        return object.orElseThrow(() -> new ProblemException(Problem.notFound(field, "no " + what + " " + id)));
    }
}
