package dev.pinfeed.canonicalstore.reads;

/** A list cursor this store did not issue (or one issued for another order): the caller's error, HTTP 400 "cursor". */
public class BadCursorException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public BadCursorException(String message) {
        super(message);
    }
}
