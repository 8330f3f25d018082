package dev.pinfeed.infra.schemaregistry;

/** Avro schemas for tests, written with single quotes for readability. */
final class AvroSchemas {

    /** User{id: long}. */
    static final String USER_ID = json("{'type':'record','name':'User','namespace':'dev.pinfeed.test','fields':[{'name':'id','type':'long'}]}");
    /** USER_ID plus name: string (required, no default). */
    static final String USER_ID_NAME = withFields("{'name':'id','type':'long'},{'name':'name','type':'string'}");
    /** USER_ID_NAME plus an optional email with default null. */
    static final String USER_ID_NAME_EMAIL = withFields(
            "{'name':'id','type':'long'},{'name':'name','type':'string'},{'name':'email','type':['null','string'],'default':null}");
    /** USER_ID_NAME plus age: int (required, no default). */
    static final String USER_ID_NAME_AGE = withFields("{'name':'id','type':'long'},{'name':'name','type':'string'},{'name':'age','type':'int'}");
    /** USER_ID_NAME with name changed to an int. */
    static final String USER_ID_NAME_AS_INT = withFields("{'name':'id','type':'long'},{'name':'name','type':'int'}");
    /** USER_ID plus name: string with default "" (bridges USER_ID and USER_ID_NAME). */
    static final String USER_ID_NAME_DEFAULTED = withFields("{'name':'id','type':'long'},{'name':'name','type':'string','default':''}");

    private AvroSchemas() {
    }

    static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    private static String withFields(String fields) {
        return json("{'type':'record','name':'User','namespace':'dev.pinfeed.test','fields':[" + fields + "]}");
    }
}
