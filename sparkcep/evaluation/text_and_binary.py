"""The functions of the plan operators of ``split``, ``regexp_extract_all``
(``regex_functions``), the STRING and BINARY conversions (``binary_codecs``), ``soundex``,
``luhn_check``, ``quote``, ``mask`` (``text_functions``), ``factorial`` and ``rint``
(``number_functions``), for ``interpreter.typed_function``: each one of non-NULL operands."""

from __future__ import annotations

from sparkcep.evaluation import binary_codecs, number_functions, regex_functions, text_functions

_PLAIN = {
    "split": regex_functions.split, "regexp_extract_all": regex_functions.regexp_extract_all,
    "base64": binary_codecs.base64, "unbase64": binary_codecs.unbase64, "encode": binary_codecs.encode,
    "to_base32": binary_codecs.to_base32, "from_base32": binary_codecs.from_base32,
    "decode": binary_codecs.decode, "soundex": text_functions.soundex, "luhn_check": text_functions.luhn_check,
    "quote": text_functions.quote, "factorial": number_functions.factorial, "rint": number_functions.rint,
}
FUNCTIONS = (*_PLAIN, "to_binary", "mask")


def function(name: str, options: dict):
    """The function of the operator ``name`` with its bound ``options`` (``to_binary``: the
    ``format`` and whether it is ``try_to_binary``)."""
    if name == "to_binary":
        return binary_codecs.to_binary(options["format"], options["try"])
    if name == "mask":
        return text_functions.mask(options["upper"], options["lower"], options["digit"], options["other"])
    return _PLAIN[name]
