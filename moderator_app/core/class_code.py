"""The code `dataclasses` and `namedtuple` compile for each class, kept between starts (a
`.pyc` for the methods they write).

Why: `@dataclass(frozen=True)` writes `__init__`, `__repr__`, `__eq__`, `__setattr__`,
`__delattr__` and `__hash__` as source text and compiles each with `exec` (one parse and one
compile a method: ~0.5 ms a class on this machine, 0.1 ms once the code is compiled). A
`verify --scan` creates 35 such classes before it reads a byte (`Thresholds` and
`ScanThresholds` with 60 fields, the report's sections, the scan's records): ~20 ms of the
~0.27 s of CPU that the small-file scan costs against its 0.07 s decode floor (issue 12, QA
s32 T7), and 18 classes (~10 ms) in every `verify` of an official run (issue 15, T8).

How: `install()` puts a caching `exec` in `dataclasses`' module namespace and a caching `eval`
in `collections`' (a module's global shadows the builtin: both call it by name), keyed by the
source text. The text decides the code entirely (compiled as those modules compile it: no
`__future__` flag of ours, file name `<string>`), so a cached code object is the one `exec`
would have compiled. The codes are read from `__pycache__/class-code.<tag>.marshal` beside this
module (the `.pyc`s' folder and trust: code of this interpreter's version only), and written
back at exit when a class compiled something new, atomically (a temporary file renamed over it),
unless bytecode is not written (`-B`, PYTHONDONTWRITEBYTECODE: the isolated children), the
program is the frozen bundle, or the folder is not writable (a read-only install); then every
start compiles, as before.
Installed by `__main__` (the CLI, the workstation and their children), never on import: a
library user or a test gets the standard library's behaviour unchanged.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from types import CodeType

#: Entries kept in the file at most: the codes of one checkout's classes are ~250 (the CLI's
#: 35 on a scan, the workstation's more); past this the file is rewritten with only what the
#: process used (classes made by tests or tools come and go).
MAX_ENTRIES = 4000

_HEADER = f"class-code {sys.version} {sys.implementation.cache_tag}"
#: mode + source -> its code, or the code's marshalled bytes as the file holds it: a start
#: unmarshals only the codes of the classes it makes (~6 us each; the CLI's scan makes ~200
#: of the ~400 the file holds)
_CODES: dict[str, CodeType | bytes] = {}
_STATE = {"installed": False, "new": 0}
_USED: set[str] = set()


def cache_path() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__",
                        f"class-code.{sys.implementation.cache_tag}.marshal")


def _compiled(source: str, mode: str):
    key = mode + source
    code = _CODES.get(key)
    if type(code) is bytes:  # read from the file: unmarshalled when first used
        code = _CODES[key] = marshal.loads(code)
    elif code is None:
        # dont_inherit: this module's `from __future__ import annotations` must not reach the
        # code (dataclasses' annotations in the signature would become strings)
        code = compile(source, "<string>", mode, dont_inherit=True)
        _CODES[key] = code
        _STATE["new"] += 1
    _USED.add(key)
    return code


def _exec(source, globals=None, locals=None, /):  # noqa: A002 - exec's own parameter names
    if globals is None:  # as exec: the caller's namespaces
        frame = sys._getframe(1)
        globals, locals = frame.f_globals, frame.f_locals if locals is None else locals
    if type(source) is str:
        source = _compiled(source, "exec")
    exec(source, globals, locals)  # noqa: S102


def _eval(source, globals=None, locals=None, /):  # noqa: A002
    if globals is None:
        frame = sys._getframe(1)
        globals, locals = frame.f_globals, frame.f_locals if locals is None else locals
    if type(source) is str:
        source = _compiled(source, "eval")
    return eval(source, globals, locals)  # noqa: S307


def _load() -> None:
    try:
        with open(cache_path(), "rb") as fh:
            data = marshal.load(fh)
    except (OSError, EOFError, ValueError, TypeError):
        return
    if type(data) is tuple and len(data) == 2 and data[0] == _HEADER \
            and type(data[1]) is dict:
        _CODES.update(data[1])


def save() -> bool:
    """Write the codes back if a class compiled something new here (atexit); whether it
    wrote. Never raises: the cache only saves time."""
    if not _STATE["new"] or sys.dont_write_bytecode or getattr(sys, "frozen", False):
        return False  # (the bundle: its folder is the installed application)
    keep = _CODES if len(_CODES) <= MAX_ENTRIES else {k: _CODES[k] for k in _USED}
    codes = {k: v if type(v) is bytes else marshal.dumps(v) for k, v in keep.items()}
    path = cache_path()
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as fh:
            marshal.dump((_HEADER, codes), fh)
        os.replace(tmp, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False
    _STATE["new"] = 0
    return True


def install() -> None:
    """Route `dataclasses`' and `namedtuple`'s compiles through the cache (once a process;
    a forked child inherits it and, leaving by `os._exit`, never writes)."""
    if _STATE["installed"]:
        return
    import atexit
    import collections
    import dataclasses

    _load()
    dataclasses.exec = _exec  # type: ignore[attr-defined]
    collections.eval = _eval  # type: ignore[attr-defined]
    _STATE["installed"] = True
    atexit.register(save)


def build(packages: list[str]) -> int:
    """Import every module of `packages` with the cache installed and write it whatever
    PYTHONDONTWRITEBYTECODE says, as `compileall` writes `.pyc`s (`make setup` runs this after
    it); a module that cannot be imported here (an optional library missing) is skipped.
    The number of codes written."""
    import importlib
    import pkgutil

    install()
    for name in packages:
        pkg = importlib.import_module(name)
        for mod in pkgutil.walk_packages(pkg.__path__, f"{name}.", onerror=lambda _n: None):
            try:
                importlib.import_module(mod.name)
            except Exception:  # noqa: BLE001, S112 - skipped: the cache only saves time
                continue
    _STATE["new"] = max(_STATE["new"], 1)
    dont, sys.dont_write_bytecode = sys.dont_write_bytecode, False
    try:
        return len(_CODES) if save() else 0
    finally:
        sys.dont_write_bytecode = dont


if __name__ == "__main__":
    sys.exit(0 if build(sys.argv[1:] or ["moderator_app"]) else 1)
