package sparkcep.jvm;

import org.apache.hive.service.auth.PasswdAuthenticationProvider;

import javax.security.sasl.AuthenticationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * HiveServer2 CUSTOM authentication against a file of {@code user:password} lines
 * ({@code user:sha256:<hex>} stores a SHA-256 digest instead of the password; blank lines and
 * lines starting with {@code #} are ignored). The file is read at every login, so edits take
 * effect without a restart. Its path comes from {@link #setPasswordFile} (called by
 * {@code sparkcep serve}) or the system property {@code sparkcep.passwordFile}.
 */
public final class PasswordFileAuthenticator implements PasswdAuthenticationProvider {
    private static volatile String passwordFile;

    public static void setPasswordFile(String path) { passwordFile = path; }

    @Override
    public void Authenticate(String user, String password) throws AuthenticationException {
        String path = passwordFile != null ? passwordFile : System.getProperty("sparkcep.passwordFile");
        if (path == null) throw new AuthenticationException("no password file is configured");
        List<String> lines;
        try {
            lines = Files.readAllLines(Paths.get(path), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AuthenticationException("the password file cannot be read");
        }
        boolean ok = false;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            int colon = line.indexOf(':');
            if (colon <= 0) continue;
            if (!line.substring(0, colon).equals(user)) continue;
            String stored = line.substring(colon + 1);
            ok |= matches(stored, password == null ? "" : password);
        }
        if (!ok) throw new AuthenticationException("invalid user name or password");
    }

    static boolean matches(String stored, String password) {
        byte[] expected;
        byte[] actual;
        if (stored.startsWith("sha256:")) {
            try {
                expected = HexFormat.of().parseHex(stored.substring(7).strip().toLowerCase());
                actual = MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
            } catch (NoSuchAlgorithmException | IllegalArgumentException e) {
                return false;
            }
        } else {
            expected = stored.getBytes(StandardCharsets.UTF_8);
            actual = password.getBytes(StandardCharsets.UTF_8);
        }
        return MessageDigest.isEqual(expected, actual);
    }
}
