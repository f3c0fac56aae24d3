"""Reading a scenario file safely: whatever the file holds, the result is a checked mapping or
one :class:`~analysis.params.parameters.ParameterError` sentence naming the file (and line), exit code 2.

Limits, because a scenario file is a few lines of overrides and anything else is a mistake or an
attack: a regular file only (a FIFO would block, /dev/zero never ends), read without blocking and
at most ``MAX_BYTES``; no anchors or aliases (an alias bomb expands exponentially); at most
``MAX_DEPTH`` levels of nesting; no duplicate keys (YAML would keep the last one silently); and
numbers only in decimal (:mod:`analysis.params.grammar`, the command line's grammar too): YAML 1.1 reads
``0100`` as 64 and ``1:30`` as 90, which no one means. ``name`` is text of at most ``MAX_NAME``
characters and ``description`` at most ``MAX_DESCRIPTION``: both are shown on every page of a
scenario build, so bidirectional and control characters are removed from them here.
"""

from __future__ import annotations

import os
import stat
import unicodedata
from pathlib import Path

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError
from yaml.events import AliasEvent

from analysis.params.grammar import NOT_DECIMAL, display_text, why_not_decimal
from analysis.params.parameters import ParameterError

MAX_BYTES = 256 * 1024
MAX_DEPTH = 16
MAX_NAME = 200
MAX_DESCRIPTION = 2_000
TOP_LEVEL = ("name", "description", "parameters")


class _Rejected(yaml.YAMLError):
    def __init__(self, message: str, mark=None):
        super().__init__(message)
        self.message, self.mark = message, mark


class ScenarioLoader(yaml.SafeLoader):
    """SafeLoader without aliases, deep nesting, duplicate keys or non-decimal numerals."""

    _depth = 0

    def compose_node(self, parent, index):
        if self.check_event(AliasEvent):
            raise _Rejected("anchors and aliases (*name) are not allowed in a scenario file",
                            self.peek_event().start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _Rejected(f"nested more than {MAX_DEPTH} levels deep", self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, OverflowError) as exc:  # a constructor's own conversion: a date out of range
            raise _Rejected(f"not a valid value: {str(exc).splitlines()[0][:120]}", node.start_mark) from None

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                raise _Rejected(f"key {key!r} is not text; parameter and field names are words", key_node.start_mark)
            if key in seen:
                raise _Rejected(f"duplicate key '{key}' (first on line {seen[key] + 1})", key_node.start_mark)
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)

    def _decimal_only(self, node):
        text = str(node.value)
        why = why_not_decimal(text)
        if why == NOT_DECIMAL:  # YAML resolved it as a number all the same
            why = "write numbers in decimal digits; YAML 1.1 reads 0100 as octal 64 and 1:30 as base 60"
        if why is not None:
            raise _Rejected(f"'{text[:40]}' is not a decimal number ({why})", node.start_mark)

    def construct_yaml_int(self, node):
        self._decimal_only(node)
        return super().construct_yaml_int(node)

    def construct_yaml_float(self, node):
        if str(node.value).lower().lstrip("+-") not in (".inf", ".nan"):
            self._decimal_only(node)
        return super().construct_yaml_float(node)


ScenarioLoader.add_constructor("tag:yaml.org,2002:int", ScenarioLoader.construct_yaml_int)
ScenarioLoader.add_constructor("tag:yaml.org,2002:float", ScenarioLoader.construct_yaml_float)


def _read_bytes(path: Path) -> bytes:
    where = f"scenario {path}"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise ParameterError(f"{where}: cannot read: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ParameterError(f"{where}: not a regular file")
        data = os.read(fd, MAX_BYTES + 1)
        while len(data) <= MAX_BYTES:
            more = os.read(fd, MAX_BYTES + 1 - len(data))
            if not more:
                break
            data += more
    except OSError as exc:
        raise ParameterError(f"{where}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise ParameterError(f"{where}: larger than {MAX_BYTES // 1024} kB; a scenario is a few lines of overrides")
    return data


def read(path) -> tuple[dict, dict[str, str]]:
    """The scenario document (a mapping with ``parameters``) and, per parameter name,
    ``"FILE:LINE: "`` for messages."""
    if not str(path).strip():  # Path("") would silently mean the current folder
        raise ParameterError("--scenario: the file name is empty")
    path = Path(path)
    where = f"scenario {path}"
    data = _read_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParameterError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    try:
        loader = ScenarioLoader(text)  # the reader refuses NUL and other control characters here
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise ParameterError(f"{where}:{line}: not valid YAML: the character U+{code:04X} "
                             f"({unicodedata.name(chr(code), 'a control character')}) is not allowed") from None
    try:
        node = loader.get_single_node()
        doc = loader.construct_document(node) if node is not None else None
    except _Rejected as exc:
        line = f":{exc.mark.line + 1}" if exc.mark else ""
        raise ParameterError(f"scenario {path}{line}: {exc.message}") from None
    except (ComposerError, ConstructorError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ParameterError(f"scenario {path}{line}: not valid YAML: {problem}") from None
    except RecursionError:
        raise ParameterError(f"{where}: nested too deeply") from None
    finally:
        loader.dispose()
    if not isinstance(doc, dict) or not isinstance(doc.get("parameters"), dict):
        raise ParameterError(f"{where}: expected a mapping with a 'parameters' mapping")
    extra = set(doc) - set(TOP_LEVEL)
    if extra:
        raise ParameterError(f"{where}: unknown top-level key(s) {', '.join(sorted(extra))}")
    for key, limit in (("name", MAX_NAME), ("description", MAX_DESCRIPTION)):
        if key in doc:
            line = next(f":{k.start_mark.line + 1}" for k, _ in node.value if k.value == key)
            if not isinstance(doc[key], str):
                raise ParameterError(f"{where}{line}: '{key}' must be text, not {type(doc[key]).__name__}")
            if len(doc[key]) > limit:
                raise ParameterError(f"{where}{line}: '{key}' is {len(doc[key]):,} characters long; "
                                     f"at most {limit:,} are allowed")
            doc[key] = display_text(doc[key])
    origin = {}
    for key_node, value_node in node.value:
        if key_node.value == "parameters":
            for k, _ in value_node.value:
                origin[k.value] = f"{path}:{k.start_mark.line + 1}: "
    return doc, origin


def load_scenario(path: str | Path) -> tuple[dict[str, object], dict[str, str]]:
    """A scenario file's overrides: a YAML mapping with an optional ``name`` and ``description`` and a
    ``parameters`` mapping of name -> value (see :func:`read` for the limits). Returns the overrides
    and, per name, ``"FILE:LINE: "`` for messages."""
    doc, origin = read(path)
    return doc["parameters"], origin
