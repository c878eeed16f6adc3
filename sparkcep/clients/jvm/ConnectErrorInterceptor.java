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
 */
public final class ConnectErrorInterceptor implements ServerInterceptor {
    private static final long TIMEOUT_MILLIS = 30_000L;
    private static final Metadata.Key<byte[]> DETAILS =
        Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER);

    @Override
    public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
            ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
        return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<ReqT, RespT>(call) {
            @Override public void close(Status status, Metadata trailers) {
                if (!status.isOk()) {
                    try {
                        Status restated = restate(status, trailers);
                        if (restated != null) status = restated;
                    } catch (RuntimeException e) {  // never fail the call over its error's wording
                        // Spark's status as it was
                    }
                }
                super.close(status, trailers);
            }
        }, headers);
    }

    /** sparkcep's status for {@code status}, with {@code trailers} updated; null to keep Spark's. */
    static Status restate(Status status, Metadata trailers) {
        String message = status.getDescription();
        // only Spark's errors with a query context, and a worker's carrying sparkcep's error
        if (message == null || !(message.contains("== SQL") || message.contains("sparkcep.errors."))) return null;
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
        String reply = ask(condition, message);
        if (reply == null || !reply.startsWith(MatchRecognizeParser.ERROR_MARKER)) return null;
        String[] parts = reply.substring(MatchRecognizeParser.ERROR_MARKER.length()).split("\n", 3);
        if (parts.length != 3) return null;
        String code = parts[0];
        String text = parts[2];

        org.sparkproject.connect.google_protos.rpc.Status.Builder rebuilt = details.toBuilder().setMessage(text);
        if (info != null) {
            Map<String, String> metadata = new LinkedHashMap<>(info.getMetadataMap());
            metadata.put("errorClass", code);
            metadata.put("sqlState", parts[1]);
            metadata.put("messageParameters", "{\"message\":" + jsonString(text.strip().split("\n", 2)[0]) + "}");
            // a Python worker's error would come back as the client's PythonException, whose
            // text starts with two lines of its own: name the error as Spark's run-time error
            if (metadata.getOrDefault("classes", "").contains("org.apache.spark.api.python.PythonException")) {
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
