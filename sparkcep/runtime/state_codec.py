"""A stream's per-key state as data: the engines' runs, held rows and counters, never the
compiled program.

A ``PartitionRunner`` is program and data. The program — the typed plan, the compiled DEFINE
conditions and MEASURES components (closures), Arrow schemas and types, and every other frozen
value built from the plan — is the same for every partition key; the data — open runs, buffered
rows, counters — is the key's own. A worker builds the program once per plan (a fresh
*template* runner, cached by the plan's digest in ``programs``) and records its objects; a
key's runner is encoded with the standard ``pickle`` in which each recorded object is written
as its number in that record (``persistent_id``) and read back as the worker's own object, so
the state store holds only the data, and loading it rebuilds no condition. A new key's runner
is the template decoded, sharing its program.

A key's stored value (``seal``) starts with a header: ``STATE_MAGIC``, the state format and
the 16-byte digest of the plan (``program_digest``: the clause's compiled identity, its Arrow schemas,
the session time zone, the WITHIN window, the state format). A value whose header is missing
(written by sparkcep before state format 2: a pickled program), of another format (format 2
kept a key's rows, runner and counters in three state variables) or whose digest differs (the
statement or its input changed since the checkpoint was written) is refused with
``STREAM_STATE_INCOMPATIBLE``, which says what to do: resuming from it would match with a
program the rows were not buffered for.

The record is made by pickling the template, so it is the same in every process for the same
plan and code: objects are numbered in the order pickle meets them, dict order is insertion
order, and a set is recorded whole (its order of iteration is never used).
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import pickle
import re
import types
from collections import OrderedDict
from typing import Callable

import pyarrow as pa

from sparkcep.errors import MatchRuntimeError

STATE_FORMAT = 3
STATE_MAGIC = b"SCEP"
_HEADER = len(STATE_MAGIC) + 1 + 16
_PROTOCOL = pickle.HIGHEST_PROTOCOL


def program_digest(*parts) -> bytes:
    """The 16-byte digest naming a program: ``parts`` are strings (deterministic in every
    process: the clause's function name is itself a digest of its compiled plan)."""
    text = "\x00".join(str(part) for part in (STATE_FORMAT, *parts))
    return hashlib.sha256(text.encode()).digest()[:16]


def _is_program(obj) -> bool:
    """Whether ``obj`` belongs to the program: code, Arrow types and schemas, and immutable
    values (frozen dataclasses holding no mutable container, frozensets)."""
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, pa.DataType, pa.Schema,
                        pa.Field, frozenset, re.Pattern)):
        return True
    if isinstance(obj, type) or isinstance(obj, types.ModuleType):
        return False  # pickled by reference anyway
    if dataclasses.is_dataclass(obj) and obj.__dataclass_params__.frozen:
        return not any(isinstance(getattr(obj, f.name, None), (list, dict, set, bytearray))
                       or type(getattr(obj, f.name, None)).__module__ == "numpy"
                       for f in dataclasses.fields(obj))
    return False


class _Recorder(pickle.Pickler):
    """Pickles the template, numbering every program object it meets instead of writing it."""

    def __init__(self, file) -> None:
        super().__init__(file, protocol=_PROTOCOL)
        self.objects: list = []
        self.numbers: dict[int, int] = {}

    def persistent_id(self, obj):
        number = self.numbers.get(id(obj))
        if number is not None:
            return number
        if _is_program(obj):
            self.numbers[id(obj)] = number = len(self.objects)
            self.objects.append(obj)
            return number
        return None


class _Encoder(pickle.Pickler):
    """Writes a program object as a call that finds it in the worker's program on load. It is
    ``reducer_override``, not ``persistent_id``: pickle calls it only for objects other than
    the built-in values (numbers, strings, lists, dicts, ...), which are most of a runner's data
    and are never program objects here (``_is_program``)."""

    def __init__(self, file, numbers: dict[int, int], digest: bytes) -> None:
        super().__init__(file, protocol=_PROTOCOL)
        self.numbers = numbers
        self.digest = digest

    def reducer_override(self, obj):
        number = self.numbers.get(id(obj))
        if number is None:
            return NotImplemented
        return _program_object, (self.digest, number)


def _program_object(digest: bytes, number: int):
    """Stands for a program object in an encoded value; ``_Decoder`` reads it as the object."""
    raise pickle.UnpicklingError("a stored stream state is read by StateCodec.decode only")


def _CodeEncoder(file, numbers: dict[int, int], digest: bytes):
    from pyspark import cloudpickle

    class CodeEncoder(cloudpickle.Pickler):
        def reducer_override(self, obj):
            number = numbers.get(id(obj))
            if number is None:
                return super().reducer_override(obj)
            return _program_object, (digest, number)

    return CodeEncoder(file, protocol=_PROTOCOL)


class _Decoder(pickle.Unpickler):
    def __init__(self, file, objects: list) -> None:
        super().__init__(file)
        self.objects = objects

    def persistent_load(self, number):  # the template's program objects (``_Recorder``)
        return self.objects[number]

    def find_class(self, module, name):
        if module == __name__ and name == "_program_object":
            return self._program_object
        return super().find_class(module, name)

    def _program_object(self, digest: bytes, number: int):  # written by ``_Encoder``
        return self.objects[number]


def incompatible(reason: str) -> MatchRuntimeError:
    return MatchRuntimeError(
        "STREAM_STATE_INCOMPATIBLE",
        f"the checkpoint's state was written {reason}, so the stream cannot resume from it: start "
        "the query with a new checkpoint location (and the input it should read from there); the "
        "matches already written stay where they are")


class StateCodec:
    """Encodes and decodes one plan's per-key values (see the module docstring)."""

    def __init__(self, digest: bytes, template: Callable[[], object] | None = None,
                 roots: tuple = ()) -> None:
        self.digest = digest
        self.header = STATE_MAGIC + bytes([STATE_FORMAT]) + digest
        self.objects: list = []
        self.numbers: dict[int, int] = {}
        self._template_bytes = None
        if template is not None:
            sink = io.BytesIO()
            recorder = _Recorder(sink)
            for root in roots:  # program objects of their own (the plan: never changed)
                recorder.numbers[id(root)] = len(recorder.objects)
                recorder.objects.append(root)
            recorder.dump(template())
            self.objects, self.numbers = recorder.objects, recorder.numbers
            self._template_bytes = sink.getvalue()

    def new(self):
        """A fresh runner sharing the worker's program (the template, decoded)."""
        return _Decoder(io.BytesIO(self._template_bytes), self.objects).load()

    def seal(self, *parts) -> bytes:
        """A stored value: the header (state format, plan digest), then ``parts`` (bytes)."""
        return b"".join((self.header, *parts))

    def open(self, blob: bytes) -> memoryview:
        """The body of a stored value, once its header is checked (``STREAM_STATE_INCOMPATIBLE``
        when it names another state format or program)."""
        self.check(blob)
        return memoryview(blob)[_HEADER:]

    def encode(self, value) -> bytes:
        """A runner's data (no header: ``seal`` adds it to the whole value)."""
        sink = io.BytesIO()
        try:
            _Encoder(sink, self.numbers, self.digest).dump(value)
        except (pickle.PicklingError, AttributeError, TypeError):
            # code made after the template (none of today's engines does): pickled by value,
            # slower but exact; the standard unpickler reads it back
            sink = io.BytesIO()
            _CodeEncoder(sink, self.numbers, self.digest).dump(value)
        return sink.getvalue()

    def decode(self, data) -> object:
        return _Decoder(io.BytesIO(data), self.objects).load()

    @staticmethod
    def encode_table(table: pa.Table) -> bytes:
        """Rows as an Arrow IPC stream (no header)."""
        sink = io.BytesIO()
        with pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table)
        return sink.getvalue()

    @staticmethod
    def decode_table(data) -> pa.Table:
        return pa.ipc.open_stream(pa.py_buffer(data)).read_all()

    def check(self, blob: bytes) -> None:
        if blob[:len(STATE_MAGIC)] != STATE_MAGIC:
            raise incompatible("by an earlier sparkcep (state format 1)")
        if blob[len(STATE_MAGIC)] != STATE_FORMAT:
            raise incompatible(f"in state format {blob[len(STATE_MAGIC)]}, this sparkcep "
                               f"reads format {STATE_FORMAT}")
        if bytes(blob[len(STATE_MAGIC) + 1:_HEADER]) != self.digest:
            raise incompatible("for another statement (its MATCH_RECOGNIZE clause, its input's "
                               "columns or types, or the session time zone changed since)")


#: the programs built in this worker, by digest (a worker may run several clauses' tasks)
_PROGRAMS: OrderedDict[bytes, StateCodec] = OrderedDict()
_KEPT = 8


def programs(digest: bytes, template: Callable[[], object] | None = None,
             roots: tuple = ()) -> StateCodec:
    """The worker's codec for ``digest``, built (with ``template`` and ``roots``, objects the
    program holds that are never changed) on first use."""
    codec = _PROGRAMS.get(digest)
    if codec is None:
        codec = _PROGRAMS[digest] = StateCodec(digest, template, roots)
        while len(_PROGRAMS) > _KEPT:
            _PROGRAMS.popitem(last=False)
    else:
        _PROGRAMS.move_to_end(digest)
    return codec


__all__ = ["STATE_FORMAT", "STATE_MAGIC", "StateCodec", "incompatible", "program_digest", "programs"]
