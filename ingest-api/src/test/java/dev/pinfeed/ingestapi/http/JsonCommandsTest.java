package dev.pinfeed.ingestapi.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.core.IngestRejection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every bad input gets a rejection naming the field and saying what is wrong. */
class JsonCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final long USER = ShardedId.compose(12, ObjectType.USER, 5);
    static final long BOARD = ShardedId.compose(12, ObjectType.BOARD, 6);
    static final long PIN = ShardedId.compose(12, ObjectType.PIN, 7);
    static final long COMMENT = ShardedId.compose(12, ObjectType.COMMENT, 8);
    static final long INTEREST = ShardedId.compose(12, ObjectType.INTEREST, 9);
    static final long RESERVED_BIT = Long.MIN_VALUE >>> 1 | PIN; // bit 62 set: a reserved bit

    private static IngestRejection rejection(String json) throws Exception {
        return catchThrowableOfType(IngestRejection.class, () -> JsonCommands.typedEvent(JSON.readTree(json.replace('\'', '"'))));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "{'username':'ana'}                                          | type        | type is required",
            "{'type':7}                                                  | type        | type must be a string",
            "{'type':'PinMoved'}                                         | type        | unknown event type 'PinMoved'",
            "{'type':'UserCreated'}                                      | username    | username is required",
            "{'type':'UserCreated','username':'Ana'}                     | username    | 3-30 characters of a-z, 0-9 and _",
            "{'type':'UserCreated','username':'ab'}                      | username    | 3-30 characters",
            "{'type':'UserCreated','username':'abcdefghijklmnopqrstuvwxyz12345'} | username | 3-30 characters",
            "{'type':'UserCreated','username':42}                        | username    | username must be a string",
            "{'type':'UserCreated','username':'ana','nick':'x'}          | nick        | unknown field 'nick'",
            "{'type':'UserCreated','username':'ana','displayName':'  '}  | displayName | displayName must not be blank",
            "{'type':'BoardCreated','ownerId':'12x','name':'b'}          | ownerId     | must be a decimal id string",
            "{'type':'BoardCreated','ownerId':'-5','name':'b'}           | ownerId     | must be a decimal id string",
            "{'type':'BoardCreated','ownerId':1.5,'name':'b'}            | ownerId     | must be a decimal id string",
            "{'type':'BoardCreated','ownerId':'99999999999999999999','name':'b'} | ownerId | must be a decimal id string",
            "{'type':'BoardCreated','ownerId':'9223372036854775808','name':'b'}  | ownerId | does not fit in 63 bits",
            "{'type':'PinDeleted','pinId':'0'}                           | pinId       | is not a valid id",
            "{'type':'PinCreated','boardId':'BOARD','authorId':'USER','details':'d','link':'ftp://x.org/a'} | link | absolute http or https URL",
            "{'type':'PinCreated','boardId':'BOARD','authorId':'USER','details':'d','imageUrl':'http:///nohost'} | imageUrl | must name a host",
            "{'type':'PinCreated','boardId':'BOARD','authorId':'USER','details':'d','link':'http://a b'} | link | is not a valid URL",
            "{'type':'PinCreated','boardId':'BOARD','authorId':'USER'}   | details     | details is required",
            "{'type':'PinCreated','boardId':'USER','authorId':'USER','details':'d'} | boardId | is a user id, expected a board id",
            "{'type':'PinCreated','boardId':'BOARD','authorId':'BOARD','details':'d'} | authorId | is a board id, expected a user id",
            "{'type':'PinCreated','boardId':'RESERVED','authorId':'USER','details':'d'} | boardId | reserved",
            "{'type':'PinCreated','parentPinId':'PIN','boardId':'BOARD','authorId':'USER','details':'d'} | details | copied from the parent pin",
            "{'type':'PinCreated','parentPinId':'PIN','boardId':'BOARD','authorId':'USER','imageUrl':'https://a.b/i.jpg'} | imageUrl | copied from the parent pin",
            "{'type':'PinCreated','parentPinId':'BOARD','boardId':'BOARD','authorId':'USER'} | parentPinId | is a board id, expected a pin id",
            "{'type':'PinCreated','parentPinId':'PIN','authorId':'USER'} | boardId | boardId is required",
            "{'type':'UserFollowed','userId':'USER','targetUserId':'USER'} | targetUserId | cannot follow themselves",
            "{'type':'PinLiked','userId':'USER','pinId':'BOARD'}         | pinId       | is a board id, expected a pin id",
            "{'type':'BoardPinsReordered','boardId':'BOARD','pinIds':'PIN'} | pinIds   | must be an array",
            "{'type':'BoardPinsReordered','boardId':'BOARD','pinIds':[]} | pinIds      | at least one pin",
            "{'type':'BoardPinsReordered','boardId':'BOARD','pinIds':['PIN','PIN']} | pinIds[1] | repeats pin",
            "{'type':'BoardPinsReordered','boardId':'BOARD','pinIds':['PIN','x']} | pinIds[1] | must be a decimal id string",
            "{'type':'CommentCreated','pinId':'PIN','authorId':'USER'}   | text        | text is required",
            "{'type':'CommentCreated','pinId':'PIN','authorId':'USER','text':'   '} | text | text must not be blank",
            "{'type':'CommentCreated','pinId':'PIN','authorId':'USER','text':7} | text   | text must be a string",
            "{'type':'CommentCreated','pinId':'PIN','authorId':'USER','text':'a\\u0007b'} | text | contains a control character",
            "{'type':'CommentCreated','pinId':'BOARD','authorId':'USER','text':'t'} | pinId | is a board id, expected a pin id",
            "{'type':'CommentCreated','pinId':'PIN','authorId':'PIN','text':'t'} | authorId | is a pin id, expected a user id",
            "{'type':'CommentCreated','pinId':'PIN','text':'t'}          | authorId    | authorId is required",
            "{'type':'CommentCreated','pinId':'PIN','authorId':'USER','text':'t','body':'x'} | body | unknown field 'body'",
            "{'type':'CommentDeleted','commentId':'PIN'}                 | commentId   | is a pin id, expected a comment id",
            "{'type':'CommentDeleted'}                                   | commentId   | commentId is required",
    })
    void rejects(String json, String field, String detail) throws Exception {
        String withIds = json.replace("'BOARD'", "'" + BOARD + "'").replace("'USER'", "'" + USER + "'")
                .replace("'PIN'", "'" + PIN + "'").replace("'RESERVED'", "'" + RESERVED_BIT + "'");
        IngestRejection r = rejection(withIds);

        assertThat(r).as("rejected").isNotNull();
        assertThat(r.reason()).isEqualTo(IngestRejection.Reason.INVALID);
        assertThat(r.field()).isEqualTo(field);
        assertThat(r.detail()).contains(detail);
    }

    @ParameterizedTest
    @CsvSource({"''", "a", "Woodworking", "wood working", "wood--working", "-wood", "wood-", "wood_working", "café"})
    void anInterestNameIsALowerCaseSlug(String name) {
        IngestRejection r = catchThrowableOfType(IngestRejection.class, () -> JsonCommands.createInterest(JSON.readTree("{\"name\":\"" + name + "\"}")));
        assertThat(r).as(name).isNotNull();
        assertThat(r.field()).isEqualTo("name");
    }

    @Test
    void anInterestNameOfTwoToFiftyCharactersParses() throws Exception {
        assertThat(JsonCommands.createInterest(JSON.readTree("{\"name\":\"3d-printing\"}")).name()).isEqualTo("3d-printing");
        assertThat(JsonCommands.createInterest(JSON.readTree("{\"name\":\"" + "a".repeat(50) + "\"}")).name()).hasSize(50);
        assertThat(catchThrowableOfType(IngestRejection.class,
                () -> JsonCommands.createInterest(JSON.readTree("{\"name\":\"" + "a".repeat(51) + "\"}"))).field()).isEqualTo("name");
    }

    @Test
    void aPinsInterestsAreAtMostTenDistinctInterestIdsEachNamedByItsPlace() throws Exception {
        String pin = "{'type':'PinCreated','boardId':'" + BOARD + "','authorId':'" + USER + "','details':'d','interestIds':[%s]}";
        StringBuilder eleven = new StringBuilder();
        for (int i = 0; i < 11; i++) eleven.append(i == 0 ? "" : ",").append("'").append(INTEREST + i).append("'");
        assertThat(rejection(pin.formatted(eleven)).field()).isEqualTo("interestIds");
        assertThat(rejection(pin.formatted("'" + INTEREST + "','" + INTEREST + "'")).field()).isEqualTo("interestIds[1]");
        assertThat(rejection(pin.formatted("'" + INTEREST + "','" + BOARD + "'")).field()).as("a board id").isEqualTo("interestIds[1]");
        assertThat(rejection(pin.formatted("'x'")).field()).isEqualTo("interestIds[0]");
        IngestCommand.CreatePin ok = (IngestCommand.CreatePin) JsonCommands.typedEvent(JSON.readTree(pin.formatted("'" + INTEREST + "'")
                .replace('\'', '"')));
        assertThat(ok.interestIds()).containsExactly(INTEREST);
        String repin = "{'type':'PinCreated','parentPinId':'" + PIN + "','boardId':'" + BOARD + "','authorId':'" + USER
                + "','interestIds':['" + INTEREST + "']}";
        assertThat(rejection(repin).field()).as("a repin carries its parent's interests").isEqualTo("interestIds");
    }

    @Test
    void overlongTextIsRejectedWithItsLength() throws Exception {
        String details = "x".repeat(2001);
        IngestRejection r = rejection("{'type':'PinCreated','boardId':'" + BOARD + "','authorId':'" + USER + "','details':'" + details + "'}");
        assertThat(r.field()).isEqualTo("details");
        assertThat(r.detail()).isEqualTo("details is 2001 characters, at most 2000 allowed");
    }

    @Test
    void aCommentIsOneTo500CharactersAfterTrimming() throws Exception {
        String at500 = "é".repeat(500);
        IngestCommand ok = JsonCommands.typedEvent(JSON.readTree(("{'type':'CommentCreated','pinId':'" + PIN + "','authorId':'" + USER
                + "','text':'  " + at500 + "\\n'}").replace('\'', '"')));
        assertThat(((IngestCommand.CreateComment) ok).text()).as("trimmed, 500 code points").isEqualTo(at500);
        IngestRejection r = rejection("{'type':'CommentCreated','pinId':'" + PIN + "','authorId':'" + USER + "','text':'" + "x".repeat(501) + "'}");
        assertThat(r.field()).isEqualTo("text");
        assertThat(r.detail()).isEqualTo("text is 501 characters, at most 500 allowed");
        IngestCommand multiline = JsonCommands.createComment(PIN, JSON.readTree("{\"authorId\":\"" + USER + "\",\"text\":\"a\\nb\"}"));
        assertThat(multiline).isEqualTo(new IngestCommand.CreateComment(PIN, USER, "a\nb"));
        IngestRejection fromPath = catchThrowableOfType(IngestRejection.class,
                () -> JsonCommands.createComment(PIN, JSON.readTree("{\"authorId\":\"" + USER + "\",\"pinId\":\"" + PIN + "\",\"text\":\"t\"}")));
        assertThat(fromPath.field()).as("the pin comes from the path only").isEqualTo("pinId");
    }

    @Test
    void controlCharactersAreRejectedButNewlinesInDetailsAreKept() throws Exception {
        assertThat(rejection("{'type':'BoardCreated','ownerId':'" + USER + "','name':'a\\u0007b'}").field()).isEqualTo("name");
        IngestCommand ok = JsonCommands.typedEvent(JSON.readTree(("{'type':'PinCreated','boardId':'" + BOARD + "','authorId':'" + USER
                + "','details':'line1\\nline2'}").replace('\'', '"')));
        assertThat(((IngestCommand.CreatePin) ok).details()).isEqualTo("line1\nline2");
    }

    @Test
    void validEventsOfEveryTypeParse() throws Exception {
        String u = "'" + USER + "'";
        String u2 = "'" + ShardedId.compose(9, ObjectType.USER, 77) + "'";
        String b = "'" + BOARD + "'";
        String p = "'" + PIN + "'";
        List<String> events = List.of(
                "{'type':'UserCreated','username':'ana_01','displayName':null}",
                "{'type':'BoardCreated','ownerId':" + u + ",'name':'  Recipes  ','description':'food'}",
                "{'type':'PinCreated','boardId':" + b + ",'authorId':" + u + ",'details':'d','link':'https://x.org/a?b=c','imageUrl':'http://img.x.org/1.jpg'}",
                "{'type':'PinDeleted','pinId':" + p + "}",
                "{'type':'UserFollowed','userId':" + u + ",'targetUserId':" + u2 + "}",
                "{'type':'UserUnfollowed','userId':" + u + ",'targetUserId':" + u2 + "}",
                "{'type':'BoardFollowed','userId':" + u + ",'boardId':" + b + "}",
                "{'type':'BoardUnfollowed','userId':" + u + ",'boardId':" + b + "}",
                "{'type':'PinLiked','userId':" + u + ",'pinId':" + p + "}",
                "{'type':'PinUnliked','userId':" + u + ",'pinId':" + PIN + "}",
                "{'type':'BoardPinsReordered','boardId':" + b + ",'pinIds':[" + p + "]}",
                "{'type':'CommentCreated','pinId':" + p + ",'authorId':" + u + ",'text':'nice'}",
                "{'type':'CommentDeleted','commentId':'" + COMMENT + "'}",
                "{'type':'InterestCreated','name':'woodworking'}",
                "{'type':'InterestFollowed','userId':" + u + ",'interestId':'" + INTEREST + "'}",
                "{'type':'InterestUnfollowed','userId':" + u + ",'interestId':'" + INTEREST + "'}");
        for (String e : events) {
            IngestCommand c = JsonCommands.typedEvent(JSON.readTree(e.replace('\'', '"')));
            assertThat(e).contains(c.eventType());
        }
        IngestCommand board = JsonCommands.typedEvent(JSON.readTree(events.get(1).replace('\'', '"')));
        assertThat(((IngestCommand.CreateBoard) board).name()).as("trimmed").isEqualTo("Recipes");
        assertThat(JsonCommands.eventTypes()).hasSize(16);
    }

    @Test
    void everyCommandWritesToJsonAndReadsBackTheSame() {
        long otherUser = ShardedId.compose(3, ObjectType.USER, 9);
        long otherPin = ShardedId.compose(12, ObjectType.PIN, 8);
        List<IngestCommand> commands = List.of(new IngestCommand.CreateUser("ana", "Ana"), new IngestCommand.CreateUser("bob", null),
                new IngestCommand.CreateBoard(USER, "Recipes", "with\nnewline"), new IngestCommand.CreatePin(BOARD, USER, "d", "https://a.b/c", null),
                new IngestCommand.DeletePin(PIN), new IngestCommand.FollowUser(USER, otherUser), new IngestCommand.UnfollowUser(USER, otherUser),
                new IngestCommand.FollowBoard(otherUser, BOARD), new IngestCommand.UnfollowBoard(otherUser, BOARD),
                new IngestCommand.LikePin(USER, PIN), new IngestCommand.UnlikePin(USER, PIN),
                new IngestCommand.ReorderBoardPins(BOARD, List.of(otherPin, PIN)),
                new IngestCommand.CreateComment(PIN, otherUser, "so\nnice"), new IngestCommand.DeleteComment(COMMENT),
                new IngestCommand.RepinPin(otherPin, BOARD, USER, "parentPinId"),
                new IngestCommand.CreatePin(BOARD, USER, "tagged", null, null, List.of(INTEREST, INTEREST + 1)),
                new IngestCommand.CreateInterest("mid-century-modern"), new IngestCommand.FollowInterest(USER, INTEREST),
                new IngestCommand.UnfollowInterest(otherUser, INTEREST));

        assertThat(commands.stream().map(IngestCommand::eventType).collect(java.util.stream.Collectors.toSet()))
                .as("every event type").isEqualTo(JsonCommands.eventTypes());
        for (IngestCommand c : commands) {
            assertThat(JsonCommands.typedEvent(JsonCommands.typedEventJson(c))).as("%s", c).isEqualTo(c);
        }
        assertThat(JsonCommands.typedEventJson(new IngestCommand.CreateUser("bob", null)).has("displayName")).isFalse();
        assertThat(JsonCommands.toJson(new IngestCommand.DeletePin(PIN)).get("pinId").asText()).isEqualTo(Long.toString(PIN));
    }

    @Test
    void aPinCreatedWithParentPinIdIsARepinAndTheRepinRouteTakesOnlyBoardAndAuthor() throws Exception {
        IngestCommand typed = JsonCommands.typedEvent(JSON.readTree(("{'type':'PinCreated','parentPinId':'" + PIN + "','boardId':'" + BOARD
                + "','authorId':'" + USER + "'}").replace('\'', '"')));
        assertThat(typed).isEqualTo(new IngestCommand.RepinPin(PIN, BOARD, USER, "parentPinId"));
        assertThat(typed.references().get(0)).isEqualTo(IngestCommand.Reference.live("parentPinId", PIN));

        assertThat(JsonCommands.repin(PIN, JSON.readTree(("{'boardId':'" + BOARD + "','authorId':'" + USER + "'}").replace('\'', '"'))))
                .isEqualTo(new IngestCommand.RepinPin(PIN, BOARD, USER));
        IngestRejection extra = catchThrowableOfType(IngestRejection.class, () -> JsonCommands.repin(PIN,
                JSON.readTree(("{'boardId':'" + BOARD + "','authorId':'" + USER + "','details':'d'}").replace('\'', '"'))));
        assertThat(extra.field()).isEqualTo("details");
        IngestRejection missing = catchThrowableOfType(IngestRejection.class, () -> JsonCommands.repin(PIN,
                JSON.readTree(("{'boardId':'" + BOARD + "'}").replace('\'', '"'))));
        assertThat(missing.field()).isEqualTo("authorId");
        IngestRejection onPinRoute = catchThrowableOfType(IngestRejection.class, () -> JsonCommands.createPin(
                JSON.readTree(("{'boardId':'" + BOARD + "','authorId':'" + USER + "','details':'d','parentPinId':'" + PIN + "'}").replace('\'', '"'))));
        assertThat(onPinRoute.field()).as("POST /v1/pins makes no repins").isEqualTo("parentPinId");
    }
}
