package sparkcep.jvm;

import org.sparkproject.connect.google_protos.rpc.ErrorInfo;
import org.sparkproject.connect.grpc.ForwardingServerCall;
import org.sparkproject.connect.grpc.Metadata;
import org.sparkproject.connect.grpc.ServerCall;
import org.sparkproject.connect.grpc.ServerCallHandler;
import org.sparkproject.connect.grpc.ServerInterceptor;
import org.sparkproject.connect.grpc.Status;
import org.sparkproject.connect.grpc.protobuf.StatusProto;
import org.sparkproject.connect.protobuf.Any;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Spark Connect's failed calls, restated against the client's text (issue 25).
 *
 * <p>Spark Connect turns a failed statement into a gRPC status in the JVM
 * ({@code ErrorUtils.buildStatusFromThrowable}: the exception's message as the status message,
 * and an {@code ErrorInfo} with its class names, error class, parameters and SQLSTATE in the
 * {@code grpc-status-details-bin} trailer); the Python driver never sees it. This interceptor
 * ({@code spark.connect.grpc.interceptor.classes}) sees the status as the call closes and asks
 * the Python rewriter ({@link Rewriter#restateMessage}) whether it is an error about SQL
 * sparkcep generated (Spark's message quotes it: {@code == SQL (line 1, position P) ==} and the
 * fragment under carets) or one a Python worker raised with sparkcep's marked line. If so, the
 * status message and the {@code ErrorInfo} become sparkcep's: {@code [CODE] message (line L,
 * column C)}, the source line and a caret; error class CODE; no {@code errorId}, so that a
 * client asking for the error's details does not get Spark's message back.
 *
 * <p>Spark's JVM clients (the Scala/Java {@code SparkSession.builder().remote(...)} and the
 * Spark Connect JDBC driver) do not show the status message: they rebuild the exception from the
 * {@code ErrorInfo}'s class names, formatting the message from the error class's template in
 * their own copy of Spark's error conditions, which has no sparkcep code (their result was
 * {@code [INTERNAL_ERROR] Cannot find main error class 'UNDEFINED_PATTERN_VARIABLE'}). Only their
 * {@code org.apache.spark.SparkException} keeps the message as sent. For a call from a Java gRPC
 * client (its {@code user-agent} names {@code grpc-java}) sparkcep's errors, the ones its parser
 * raised included, therefore name that class alone; the error class and SQLSTATE stay sparkcep's.
 * Python clients show the status message whatever the class, and keep Spark's class names
 * ({@code ParseException} for a statement sparkcep rejects).
 */
public final class ConnectErrorInterceptor implements ServerInterceptor {
    private static final long TIMEOUT_MILLIS = 30_000L;
    private static final Metadata.Key<byte[]> DETAILS =
        Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER);
    private static final Metadata.Key<String> USER_AGENT =
        Metadata.Key.of("user-agent", Metadata.ASCII_STRING_MARSHALLER);
    /** the class a sparkcep statement error is raised as ({@link MatchRecognizeParseException}) */
    private static final String PARSE_ERROR = MatchRecognizeParseException.class.getName();
    /** the one class a JVM client rebuilds with the status message as its message */
    private static final String JVM_CLIENT_CLASSES = "[\"org.apache.spark.SparkException\"]";

    @Override
    public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
            ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
        boolean jvmClient = isJvmClient(headers.get(USER_AGENT));
        return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<ReqT, RespT>(call) {
            @Override public void close(Status status, Metadata trailers) {
                if (!status.isOk()) {
                    try {
                        Status restated = restate(status, trailers, jvmClient);
                        if (restated != null) status = restated;
                    } catch (RuntimeException e) {  // never fail the call over its error's wording
                        // Spark's status as it was
                    }
                }
                super.close(status, trailers);
            }
        }, headers);
    }

    /** Whether a call's {@code user-agent} is Java gRPC's (Spark's Scala client, its JDBC driver). */
    static boolean isJvmClient(String userAgent) {
        return userAgent != null && userAgent.contains("grpc-java");
    }

    /** sparkcep's status for {@code status}, with {@code trailers} updated; null to keep Spark's. */
    static Status restate(Status status, Metadata trailers, boolean jvmClient) {
        String message = status.getDescription();
        if (message == null) return null;
        org.sparkproject.connect.google_protos.rpc.Status details = StatusProto.fromStatusAndTrailers(status, trailers);
        ErrorInfo info = null;
        int infoAt = -1;
        for (int i = 0; i < details.getDetailsCount(); i++) {
            Any any = details.getDetails(i);
            if (any.is(ErrorInfo.class)) {
                try {
                    info = any.unpack(ErrorInfo.class);
                    infoAt = i;
                } catch (Exception e) {
                    return null;
                }
                break;
            }
        }
        String condition = info == null ? "" : info.getMetadataOrDefault("errorClass", "");
        if (info != null && info.getMetadataOrDefault("classes", "").contains(PARSE_ERROR)) {
            // a statement sparkcep rejected: its message is sparkcep's already
            if (!jvmClient) return null;
            return replace(status, trailers, details, info, infoAt, condition,
                           info.getMetadataOrDefault("sqlState", "42000"), message, true);
        }
        // only Spark's errors with a query context, and a worker's carrying sparkcep's error
        if (!(message.contains("== SQL") || message.contains("sparkcep.errors."))) return null;
        String reply = ask(condition, message);
        if (reply == null || !reply.startsWith(MatchRecognizeParser.ERROR_MARKER)) return null;
        String[] parts = reply.substring(MatchRecognizeParser.ERROR_MARKER.length()).split("\n", 3);
        if (parts.length != 3) return null;
        return replace(status, trailers, details, info, infoAt, parts[0], parts[1], parts[2], jvmClient);
    }

    /** The status with sparkcep's {@code text}, {@code code} and {@code sqlState}. */
    private static Status replace(Status status, Metadata trailers,
                                  org.sparkproject.connect.google_protos.rpc.Status details,
                                  ErrorInfo info, int infoAt, String code, String sqlState,
                                  String text, boolean jvmClient) {
        org.sparkproject.connect.google_protos.rpc.Status.Builder rebuilt = details.toBuilder().setMessage(text);
        if (info != null) {
            Map<String, String> metadata = new LinkedHashMap<>(info.getMetadataMap());
            metadata.put("errorClass", code);
            metadata.put("sqlState", sqlState);
            metadata.put("messageParameters", "{\"message\":" + jsonString(text.strip().split("\n", 2)[0]) + "}");
            if (jvmClient) {
                metadata.put("classes", JVM_CLIENT_CLASSES);
            } else if (metadata.getOrDefault("classes", "").contains("org.apache.spark.api.python.PythonException")) {
                // a Python worker's error would come back as the client's PythonException, whose
                // text starts with two lines of its own: name the error as Spark's run-time error
                metadata.put("classes", "[\"org.apache.spark.SparkRuntimeException\"]");
            }
            metadata.remove("errorId");     // FetchErrorDetails would answer with Spark's message
            metadata.remove("stackTrace");
            ErrorInfo replaced = info.toBuilder().clearMetadata().putAllMetadata(metadata).build();
            rebuilt.setDetails(infoAt, Any.pack(replaced));
        }
        trailers.discardAll(DETAILS);
        trailers.put(DETAILS, rebuilt.build().toByteArray());
        return status.withDescription(text);
    }

    private static String jsonString(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static String ask(String condition, String message) {
        return MatchRecognizeParser.askRewriter(r -> r.restateMessage(condition, message),
                                                TIMEOUT_MILLIS);
    }
}
