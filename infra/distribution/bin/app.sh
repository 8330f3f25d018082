#!/bin/sh
# ${project.artifactId} ${project.version}: runs ${app.main-class}.
#   PINFEED_CONFIG  the configuration file (docs/deployment.md); secrets as <key>.file or PINFEED_<KEY>_FILE
#   JAVA_OPTS       more JVM options, e.g. "-Xms1g -Xmx1g" or "@/path/to/options-file"
#   JAVA_HOME       the JDK 17 to run (else java on the PATH)
# conf/jvm.options holds the flags every pinfeed app needs (HBase's client falls back to slow paths on JDK 17 without them).
set -e
APP_HOME=$(cd "$(dirname "$0")/.." && pwd -P)
if [ -n "$JAVA_HOME" ]; then JAVA="$JAVA_HOME/bin/java"; else JAVA=java; fi
# JAVA_OPTS is split on spaces on purpose (several options in one variable, as with other JVM apps).
# shellcheck disable=SC2086
exec "$JAVA" "@$APP_HOME/conf/jvm.options" $JAVA_OPTS -cp "$APP_HOME/lib/*" ${app.main-class} "$@"
