package dev.pinfeed.feedservice;

import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Response;
import dev.pinfeed.httpkit.RouteOptions;
import dev.pinfeed.idallocator.ShardedId;
import java.util.LinkedHashMap;
import java.util.Map;

/** GET /v1/ids/{id}: the sharded layout's fields of any id (decimal string). */
public final class IdHttpApi {

    private IdHttpApi() {}

    public static HttpApp.Builder routes(HttpApp.Builder app, RouteOptions options) {
        return app.route("GET", "/v1/ids/{id}", options, r -> {
            ShardedId id = ShardedId.decode(Params.id(r, "id", null));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("id", Long.toString(id.value()));
            body.put("shard", id.shard());
            body.put("type", id.typeId());
            body.put("typeName", id.typeName());
            body.put("localId", Long.toString(id.localId()));
            return Response.json(200, body);
        });
    }
}
