package dev.pinfeed.idallocator;

/** Bad input: an ID, field or name that no layout accepts. The message says which rule it broke. */
public class InvalidIdException extends IllegalArgumentException {

    public InvalidIdException(String message) {
        super(message);
    }
}
