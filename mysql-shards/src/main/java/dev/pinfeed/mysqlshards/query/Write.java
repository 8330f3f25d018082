package dev.pinfeed.mysqlshards.query;

import java.util.List;

/** A statement that changes one shard's table: built here, executed inside a host transaction. */
public sealed interface Write permits Upsert, Update, Delete {

    /** The SQL for one shard database, parameters appended to {@code params}. */
    String render(String database, List<Object> params);
}
