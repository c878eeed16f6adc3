package sparkcep.jvm;

import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.SparkSessionExtensionsProvider;
import scala.runtime.BoxedUnit;

/** {@code spark.sql.extensions=sparkcep.jvm.MatchRecognizeExtensions}: wraps every session's parser. */
public final class MatchRecognizeExtensions implements SparkSessionExtensionsProvider {
    @Override
    public BoxedUnit apply(SparkSessionExtensions extensions) {
        extensions.injectParser((session, parser) -> new MatchRecognizeParser(session, parser));
        return BoxedUnit.UNIT;
    }
}
