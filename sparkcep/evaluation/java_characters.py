"""Java's ``Character.getType`` classes that ``mask`` and ``luhn_check`` read (upper-case letter,
lower-case letter, decimal digit, anything else), as Python's ``unicodedata`` gives them, where
both know the character the same way.

Spark 4.3 runs on Java 17 (Unicode 13) or 21 (Unicode 15); Python 3.11's ``unicodedata`` is
Unicode 14. Measured on Spark 4.3 / Java 17 (``mask(s, 'U', 'l', 'd', 'o')`` over every code
point but the surrogates, ``test_text_and_binary_spark.py``): every class agrees with Python's
``Lu`` / ``Ll`` / ``Nd`` except for ``UNICODE_14_ADDITIONS``, letters and digits Unicode 14
added, which Java 17 does not know (Java 21 does). Those, and the code points Python does not
know (category ``Cn``: Java 21 knows some, such as the Kawi digits), have a class that depends
on Spark's Java version: ``java_class`` refuses them (``UNSUPPORTED_UNICODE_CHARACTER``).
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right

from sparkcep.errors import MatchRuntimeError

# (first, last) code points; measured as the module says
UNICODE_14_ADDITIONS = (
    (0x2C2F, 0x2C2F), (0x2C5F, 0x2C5F), (0xA7C0, 0xA7C1), (0xA7D0, 0xA7D1), (0xA7D3, 0xA7D3), (0xA7D5, 0xA7D9),
    (0x10570, 0x1057A), (0x1057C, 0x1058A), (0x1058C, 0x10592), (0x10594, 0x10595), (0x10597, 0x105A1),
    (0x105A3, 0x105B1), (0x105B3, 0x105B9), (0x105BB, 0x105BC), (0x16AC0, 0x16AC9), (0x1DF00, 0x1DF09),
    (0x1DF0B, 0x1DF1E),
)
_STARTS = [first for first, _ in UNICODE_14_ADDITIONS]
UPPER, LOWER, DIGIT, OTHER = "upper", "lower", "digit", "other"
_CLASSES = {"Lu": UPPER, "Ll": LOWER, "Nd": DIGIT}


def version_dependent(character: str) -> bool:
    code = ord(character)
    k = bisect_right(_STARTS, code) - 1
    if k >= 0 and code <= UNICODE_14_ADDITIONS[k][1]:
        return True
    return unicodedata.category(character) == "Cn"


def java_class(character: str, function: str) -> str:
    """``UPPER``, ``LOWER``, ``DIGIT`` or ``OTHER``, as Java's ``Character.getType`` reads
    ``character`` (``function``: the SQL function, for the message)."""
    category = unicodedata.category(character)
    if category in ("Cn", "Lu", "Ll", "Nd") and version_dependent(character):
        raise MatchRuntimeError(
            "UNSUPPORTED_UNICODE_CHARACTER",
            f"{function} of a string holding U+{ord(character):04X}, which Java 17 and Java 21 (Unicode 13 and 15) "
            "classify differently, so Spark's answer depends on its Java version; apply it inside the navigation")
    return _CLASSES.get(category, OTHER)
