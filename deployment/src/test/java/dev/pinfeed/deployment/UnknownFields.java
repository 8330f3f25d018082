package dev.pinfeed.deployment;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Fields the Kubernetes model does not know. The model keeps them as "additional properties" instead of refusing
 * them, so a misspelt field ({@code readinesProbe}) would parse, and the API server would drop or refuse it.
 */
final class UnknownFields {

    private UnknownFields() {}

    /** The paths of every unknown field in {@code resource}, e.g. {@code spec.template.spec.containers.readinesProbe}. */
    static List<String> in(Object resource) {
        List<String> found = new ArrayList<>();
        walk(resource, "", found);
        return found;
    }

    private static void walk(Object node, String path, List<String> found) {
        if (node instanceof Collection<?> items) {
            for (Object item : items) walk(item, path, found);
            return;
        }
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> walk(value, path + "." + key, found));
            return;
        }
        if (!(node instanceof KubernetesResource)) return; // strings, numbers, quantities: leaves
        for (Method getter : node.getClass().getMethods()) {
            if (!getter.getName().startsWith("get") || getter.getParameterCount() > 0 || getter.getDeclaringClass() == Object.class) continue;
            Object value = invoke(getter, node);
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra) extra.keySet().forEach(key -> found.add(join(path, String.valueOf(key))));
            } else if (!getter.getName().equals("getLabels") && !getter.getName().equals("getAnnotations")) {
                walk(value, join(path, field(getter)), found);
            }
        }
    }

    private static Object invoke(Method getter, Object node) {
        try {
            return getter.invoke(node);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(getter + ": " + e.getMessage(), e);
        }
    }

    private static String field(Method getter) {
        String name = getter.getName().substring(3);
        return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }
}
