"""Tests of the ``dialect`` package.

Why this file does what it does: pytest (prepend import mode, ``tests/conftest.py`` without a
``tests/__init__.py``) puts ``tests/`` on ``sys.path``. A plain ``tests/dialect/`` directory
would then be found as a *namespace package* named ``dialect`` and shadow the real ``dialect``
package (installed through the editable finder, which Python consults after the path finder),
breaking every test that imports it. So this directory is a regular package that *is* the real
``dialect`` package: it runs the real ``dialect/__init__.py`` and searches the real directory
first for submodules (``dialect.parser``, ...), then this one for the test modules.
"""

from pathlib import Path as _Path

_REAL_INIT = _Path(__file__).resolve().parents[2] / "dialect" / "__init__.py"
__path__ = [str(_REAL_INIT.parent), str(_Path(__file__).resolve().parent)]
exec(compile(_REAL_INIT.read_text(encoding="utf-8"), str(_REAL_INIT), "exec"))
