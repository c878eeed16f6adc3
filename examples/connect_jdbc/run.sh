#!/usr/bin/env bash
# MatchRecognizeOverJdbc.java against `sparkcep serve --connect`, with the JVM Spark Connect
# clients the pyspark wheel carries (its jars/connect-repl folder): the JDBC driver and the
# Scala/Java client. Compiles the program (javac, JDK 17+) and runs it; no downloads.
#
#   examples/connect_jdbc/run.sh sc://127.0.0.1:15002 [jdbc|session|both]
#
# PYTHON: a Python with pyspark installed, whose jars are used (default: python3).
# CLASSES_DIR: where the program is compiled (default: a temporary folder, removed afterwards).
# JAVA_CLASSPATH (printed with --classpath): the jars the clients need, found by name.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jars=$("${PYTHON:-python3}" -c 'import pathlib, pyspark; print(pathlib.Path(pyspark.__file__).resolve().parent / "jars")')

# The clients' jars hold gRPC, Netty, Arrow and Spark's SQL API (shaded); the rest comes from
# pyspark's own jars: Scala, Spark's utilities, logging and JSON. Found by trying: without any
# one of them a query or an error fails with NoClassDefFoundError, except that the JDBC driver
# alone does without spark-core and the SparkSession alone without the JDBC jar.
classpath=""
for prefix in connect-repl/spark-connect-client-jdbc_ connect-repl/spark-connect-client-jvm_ \
        scala-library- scala-reflect- spark-common-utils_ spark-common-utils-java_ spark-unsafe_ \
        spark-core_ log4j-api- log4j-core- slf4j-api- json4s-ast_ json4s-core_ json4s-jackson-core_ \
        jackson-databind- jackson-core- jackson-annotations- jackson-module-scala_ paranamer- \
        kryo-shaded- icu4j-; do
    found=("$jars"/$prefix*.jar)
    if [ ! -e "${found[0]}" ]; then
        echo "run.sh: no $prefix*.jar in $jars" >&2
        exit 1
    fi
    classpath="$classpath${classpath:+:}${found[0]}"
done
if [ "${1:-}" = "--classpath" ]; then
    echo "$classpath"
    exit 0
fi
if [ $# -lt 1 ]; then
    echo "usage: $0 sc://HOST:PORT [jdbc|session|both]" >&2
    exit 2
fi

classes=${CLASSES_DIR:-}
if [ -z "$classes" ]; then
    classes=$(mktemp -d)
    trap 'rm -rf "$classes"' EXIT
fi
javac -d "$classes" -cp "$classpath" "$here/MatchRecognizeOverJdbc.java"
# Arrow (the result format) reads direct buffers, which Java 17 opens only on request
java --add-opens=java.base/java.nio=ALL-UNNAMED -cp "$classes:$classpath" \
    MatchRecognizeOverJdbc "$@"
