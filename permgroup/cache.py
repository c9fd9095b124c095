"""On-disk cache of numpy arrays, keyed and checked; the one way tables are named
and loaded or built (:func:`table_file`, :func:`cached_array`), and what the
cache holds (:func:`cache_entries`, for ``permgroup cache``).

A cache file holds a one-line JSON header (a magic word, the caller's key
fields, shape, dtype, CRC-32 of the data) followed by the raw array bytes.  It
is written to a temporary name and renamed, so a reader never sees half a file;
a file whose header or checksum does not match is reported and ignored.

The folder is ``$PERMGROUP_CACHE`` if set, else the user's cache folder
(``$XDG_CACHE_HOME/permgroup`` or ``~/.cache/permgroup``).  A folder that cannot
be made, read or written is reported once (:class:`CacheWarning`) and the work
goes on without the cache: a cache is never a reason to give no answer.
Temporary files carry their writer's process id, so those left by a writer that
was killed are removed by the next write in the same folder.

>>> import tempfile, numpy as np
>>> folder = tempfile.mkdtemp()
>>> save_array(folder + "/x.bin", {"key": "demo"}, np.arange(5, dtype=np.uint8))
>>> load_array(folder + "/x.bin", {"key": "demo"}).tolist()
[0, 1, 2, 3, 4]
>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:   # a file of another key
...     warnings.simplefilter("always")
...     load_array(folder + "/x.bin", {"key": "other"}) is None
True
>>> "built for another definition" in str(caught[0].message)
True
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import warnings
import zlib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from permgroup.budget import size_text
from permgroup.progress import Progress, building

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

MAGIC = "permgroup-array-1"
TEMPORARY_SUFFIX = ".tmp"


class CacheWarning(UserWarning):
    """A cache file or folder could not be used; the work goes on without it."""


_reported_folders: set[str] = set()


def cache_dir() -> Path:
    """The cache folder (created if missing; if it cannot be, a :class:`CacheWarning`
    says why and the folder is returned all the same: reads then find nothing and
    writes are skipped).

    >>> import os, tempfile
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp() + "/new"
    >>> folder = cache_dir()
    >>> folder.is_dir(), folder.name
    (True, 'new')
    """
    folder = os.environ.get("PERMGROUP_CACHE")
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "permgroup")
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _folder_unusable(path, exc)
    return path


def _reason(exc: OSError) -> str:
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return "it is not a folder"
    return exc.strerror or type(exc).__name__


def _folder_unusable(folder: Path, exc: OSError) -> None:
    """Warn once per folder and reason (a build may try to write many files)."""
    message = (f"cache folder {folder} cannot be used ({_reason(exc)}); "
               "working without the cache")
    if message not in _reported_folders:
        _reported_folders.add(message)
        warnings.warn(message, CacheWarning, stacklevel=4)


def writer_alive(pid: int) -> bool:
    """Whether process ``pid`` (a file's writer) still runs.

    >>> writer_alive(os.getpid())
    True
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def remove_stale_temporaries(folder: str | os.PathLike) -> list[Path]:
    """Delete the temporary files in ``folder`` whose writing process is gone
    (killed mid-write: a rename never happened); the paths removed.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "t.table.999999999.abc.tmp").write_bytes(b"half")  # no such process
    >>> _ = (folder / f"t.table.{os.getpid()}.abc.tmp").write_bytes(b"mine")  # still writing
    >>> [p.name for p in remove_stale_temporaries(folder)]
    ['t.table.999999999.abc.tmp']
    """
    removed = []
    for path in Path(folder).glob(f"*{TEMPORARY_SUFFIX}"):
        parts = path.name.split(".")
        pid = parts[-3] if len(parts) >= 4 else ""
        if pid.isdigit() and not writer_alive(int(pid)):
            try:
                path.unlink()
            except OSError:
                continue
            removed.append(path)
    return removed


def save_array(path: str | os.PathLike, key: dict, array: np.ndarray) -> None:
    """Write ``array`` with ``key`` in its header, atomically.  A folder or file
    that cannot be written gives a :class:`CacheWarning`, not an error.

    >>> import numpy as np, tempfile
    >>> path = Path(tempfile.mkdtemp()) / "sub" / "x.bin"  # folders are created
    >>> save_array(path, {"key": "demo"}, np.array([[1, 2], [3, 4]], dtype=np.int32))
    >>> line, data = path.read_bytes().split(b"\\n", 1)
    >>> header = json.loads(line)
    >>> header["magic"], header["key"], header["shape"], header["dtype"], len(data)
    ('permgroup-array-1', 'demo', [2, 2], '<i4', 16)
    """
    import numpy as np

    array = np.ascontiguousarray(array)
    header = dict(key, magic=MAGIC, shape=list(array.shape), dtype=array.dtype.str,
                  crc32=zlib.crc32(array.data))
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(path.parent)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.{os.getpid()}.",
                                   suffix=TEMPORARY_SUFFIX)
    except OSError as exc:
        _folder_unusable(path.parent, exc)
        return
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(json.dumps(header, sort_keys=True).encode() + b"\n")
            f.write(array.data)
        os.replace(tmp, path)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if not isinstance(exc, OSError):
            raise
        warnings.warn(f"could not write cache file {path} ({_reason(exc)}); "
                      "working without it", CacheWarning, stacklevel=2)


def load_array(path: str | os.PathLike, key: dict) -> np.ndarray | None:
    """The array stored at ``path`` if its header carries ``key`` and the data
    checks out; ``None`` (with a warning when a file was there) otherwise.

    >>> import numpy as np, tempfile, warnings
    >>> path = Path(tempfile.mkdtemp()) / "x.bin"
    >>> load_array(path, {"key": "demo"}) is None  # no file: no warning
    True
    >>> save_array(path, {"key": "demo"}, np.array([[1, 2], [3, 4]], dtype=np.int32))
    >>> load_array(path, {"key": "demo"}).tolist()
    [[1, 2], [3, 4]]
    >>> with open(path, "r+b") as f:  # damage the last byte
    ...     _ = f.seek(-1, 2)
    ...     _ = f.write(b"\\xff")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     print(load_array(path, {"key": "demo"}), caught[0].message)  # doctest: +ELLIPSIS
    None ignoring cache file .../x.bin: checksum mismatch; it will be rebuilt
    """
    import numpy as np

    loaded = load_bytes(path, key)
    if loaded is None:
        return None
    header, data = loaded
    return np.frombuffer(data, dtype=np.dtype(header["dtype"])).reshape(header["shape"])


def load_bytes(path: str | os.PathLike, key: dict) -> tuple[dict, bytes] | None:
    """The header and raw data of a checked cache file, without numpy (a process
    that only looks entries up need not pay for importing it).

    >>> import numpy as np, tempfile
    >>> path = Path(tempfile.mkdtemp()) / "x.bin"
    >>> save_array(path, {"key": "demo"}, np.arange(3, dtype=np.uint8))
    >>> header, data = load_bytes(path, {"key": "demo"})
    >>> header["shape"], header["dtype"], data
    ([3], '|u1', b'\\x00\\x01\\x02')
    """
    path = Path(path)
    try:
        with open(path, "rb") as f:
            header_line = f.readline(1 << 16)
            data = f.read()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        warnings.warn(f"ignoring cache file {path}: {_reason(exc)}", CacheWarning, stacklevel=3)
        return None
    problem = _check(header_line, data, key)
    if problem:
        warnings.warn(f"ignoring cache file {path}: {problem}; it will be rebuilt", CacheWarning,
                      stacklevel=3)
        return None
    return json.loads(header_line), data


def load_byte(path: str | os.PathLike, key: dict, index: int) -> int | None:
    """Entry ``index`` of a cached one-byte array, reading only that byte; ``None``
    (with a warning when a file was there) unless the header carries ``key`` and
    the file has its full length.  The CRC-32 is left to :func:`load_bytes`:
    checking it here would mean reading the whole file to answer one question.

    >>> import numpy as np, tempfile
    >>> path = Path(tempfile.mkdtemp()) / "x.bin"
    >>> save_array(path, {"key": "demo"}, np.arange(5, dtype=np.uint8) * 10)
    >>> load_byte(path, {"key": "demo"}, 3)
    30
    """
    path = Path(path)
    try:
        with open(path, "rb") as f:
            header_line = f.readline(1 << 16)
            length = f.seek(0, os.SEEK_END) - len(header_line)
            f.seek(len(header_line) + index)
            entry = f.read(1)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        warnings.warn(f"ignoring cache file {path}: {_reason(exc)}", CacheWarning, stacklevel=2)
        return None
    header, problem = _header_problem(header_line, length, key)
    if problem is None and (header["dtype"] != "|u1" or len(entry) != 1):
        problem = "it holds another kind of array"
    if problem:
        warnings.warn(f"ignoring cache file {path}: {problem}", CacheWarning, stacklevel=2)
        return None
    return entry[0]


def cached_header(path: str | os.PathLike, key: dict) -> dict | None:
    """The header of the cache file at ``path`` when it carries ``key`` and data
    of its full length, read without the data (what a table holds, known
    before loading it; the CRC-32 is left to :func:`load_bytes`); ``None``
    otherwise, silently.

    >>> import numpy as np, tempfile
    >>> path = Path(tempfile.mkdtemp()) / "x.bin"
    >>> save_array(path, {"key": "demo", "size": 5}, np.arange(5, dtype=np.uint8))
    >>> cached_header(path, {"key": "demo"})["size"], cached_header(path, {"key": "other"})
    (5, None)
    """
    try:
        with open(path, "rb") as f:
            header_line = f.readline(1 << 16)
            length = f.seek(0, os.SEEK_END) - len(header_line)
    except OSError:
        return None
    header, problem = _header_problem(header_line, length, key)
    return None if problem else header


def _header_problem(header_line: bytes, length: int, key: dict) -> tuple[dict, str | None]:
    """The parsed header and what is wrong with it for ``key`` and a data part of
    ``length`` bytes (``None`` if nothing)."""
    try:
        header = json.loads(header_line)
    except ValueError:
        return {}, "unreadable header"
    if not isinstance(header, dict) or header.get("magic") != MAGIC:
        return {}, "not a permgroup cache file"
    for field, value in key.items():
        if header.get(field) != value:
            return header, f"it was built for another definition (a different {field})"
    itemsize = int(str(header.get("dtype", ""))[2:] or 0)  # numpy's "|u1", "<i4"...
    expected = itemsize
    for extent in header.get("shape", []):
        expected *= extent
    if length != expected:
        return header, f"truncated ({length} of {expected} bytes)"
    return header, None


def _check(header_line: bytes, data: bytes, key: dict) -> str | None:
    header, problem = _header_problem(header_line, len(data), key)
    if problem is None and zlib.crc32(data) != header["crc32"]:
        return "checksum mismatch"
    return problem


# --- what the cache holds ----------------------------------------------------

#: words in a cache file's name that say what it holds, and how to say it
_FORMS = {"digits": "move tables", "pattern": "pattern database",
          "symmetric": "table over symmetry classes", "depths": "table", "tops": "pattern table"}
_NAME = re.compile(r"^(?P<stem>.+?)-(?P<digest>[0-9a-f]{16})(?P<ext>(\.[A-Za-z0-9_]+)*)$")


@dataclass(frozen=True)
class CacheEntry:
    """One cached table (one or more files): the puzzle and metric it belongs
    to, its form, its size in bytes and when it was written (seconds since the
    epoch)."""

    puzzle: str
    metric: str
    form: str
    size: int
    date: float
    paths: tuple[Path, ...]


def describe_file(name: str) -> tuple[str, str, str, str]:
    """The puzzle, metric, form and stem of a cache file, read from its name
    (``?`` for a name the engine does not write).

    >>> describe_file("minicube-qtm-a14-87f25e8e6725ad08.table")
    ('minicube', 'qtm', 'table (1 byte a state)', 'minicube-qtm-a14-87f25e8e6725ad08')
    >>> describe_file("cube3-chain1-ball8-0123456789abcdef.word1")[:3]
    ('cube3', '', 'phase 2: positions within 8 moves')
    >>> describe_file("pyraminx-notips-htm-0123456789abcdef.orbit.table")[:3]
    ('pyraminx-notips', 'htm', 'table (1 byte a state)')
    >>> describe_file("cube3-qtm-ball1-fdb00b02d9f91709.depths")[:3]
    ('cube3', 'qtm', 'positions within 1 move')
    >>> describe_file("chain-81ed5758915c5191d9e13c7b-chain0-pattern-810105d6e0789382.nibbles")[:3]
    ('moves 81ed5758', '', "solver's subgroup chain, phase 1: pattern database")
    >>> describe_file("notes.txt")[:3]
    ('?', '', 'notes.txt')
    """
    match = _NAME.match(name)
    if match is None:
        if name.endswith(TEMPORARY_SUFFIX):
            return "?", "", "unfinished write", name
        return "?", "", name, name
    tokens, ext = match["stem"].split("-"), match["ext"]
    stem = f"{match['stem']}-{match['digest']}"
    metric, words, prefix = "", [], ""
    while len(tokens) > 1:
        token = tokens[-1]
        if token in ("qtm", "htm"):
            metric = token
        elif re.fullmatch(r"a\d+", token):
            pass  # the anchor of a normalized table
        elif re.fullmatch(r"ball\d+", token):
            words.insert(0, f"positions within {token[4:]} move{'' if token == 'ball1' else 's'}")
        elif re.fullmatch(r"chain\d+", token):
            prefix = f"phase {int(token[5:]) + 1}: "
        elif re.fullmatch(r"start\d+", token):
            words.append(f"from start {token[5:]}")
        elif token in _FORMS:
            words.insert(0, _FORMS[token])
        else:
            break
        tokens.pop()
    if len(tokens) == 2 and tokens[0] == "chain" and re.fullmatch(r"[0-9a-f]{24}", tokens[1]):
        # the generic solver's chain belongs to a set of moves (its fingerprint),
        # whichever puzzle has them
        tokens, prefix = [f"moves {tokens[1][:8]}"], "solver's subgroup chain, " + prefix
    if ext in (".table", ".orbit.table") and not words:
        words = ["table (1 byte a state)"]
    elif ext == ".nibbles" and not words:
        words = ["table (4 bits a state)"]
    elif ext in (".packed2", ".colourings", ".checkpoint", ".outofcore"):
        words.insert(0, {".packed2": "table (2 bits a state)", ".colourings": "colouring table",
                         ".checkpoint": "unfinished build (checkpoint)",
                         ".outofcore": "out-of-core build"}[ext])
    elif not ext.endswith((".table", ".nibbles", ".tables")):
        stem = name[:-len(ext.split(".")[-1]) - 1]  # one part of a table in several files
    return "-".join(tokens), metric, prefix + (" ".join(words) or ext.lstrip(".")), stem


def cache_entries(folder: str | os.PathLike | None = None) -> list[CacheEntry]:
    """The tables in the cache folder (files of one table taken together),
    by puzzle and form.

    >>> import numpy as np, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> save_array(folder / "ring-qtm-a0-0123456789abcdef.table", {}, np.zeros(5, np.uint8))
    >>> [(e.puzzle, e.metric, e.form) for e in cache_entries(folder)]
    [('ring', 'qtm', 'table (1 byte a state)')]
    """
    folder = Path(cache_dir() if folder is None else folder)
    groups: dict[str, list] = {}
    for path in sorted(folder.iterdir() if folder.is_dir() else []):
        puzzle, metric, form, stem = describe_file(path.name)
        try:
            stat = path.stat()
        except OSError:
            continue
        if path.is_file():
            size = stat.st_size
        else:  # a build in a folder: every file in it counts, and whether it is done
            files = [p for p in path.rglob("*") if p.is_file()]
            size = sum(p.stat().st_size for p in files)
            form = _folder_form(path, form, len(files))
        entry = groups.setdefault(stem, [puzzle, metric, form, 0, 0.0, []])
        entry[3] += size
        entry[4] = max(entry[4], stat.st_mtime)
        entry[5].append(path)
    return sorted((CacheEntry(p, m, f, s, d, tuple(paths))
                   for p, m, f, s, d, paths in groups.values()),
                  key=lambda e: (e.puzzle, e.metric, e.form))


def _folder_form(folder: Path, form: str, files: int) -> str:
    """What an out-of-core build's folder holds: a finished table, or the levels
    of a build that was stopped (its manifest says which).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "manifest.json").write_text('{"levels": [1, 6, 27], "table": null}')
    >>> _folder_form(folder, "out-of-core build", 40)
    'unfinished out-of-core build (3 levels, 40 files; the same command goes on)'
    """
    if form != "out-of-core build":
        return form
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
        levels, done = len(manifest["levels"]), bool(manifest.get("table"))
    except (OSError, ValueError, KeyError, TypeError):
        return f"unfinished out-of-core build ({files} files)"
    if done:
        return "table (2 bits a state, out of core)"
    return (f"unfinished out-of-core build ({levels} levels, {files} files; the same command "
            "goes on)")


def clear_cache(puzzles: Collection[str] = (), folder: str | os.PathLike | None = None
                ) -> list[CacheEntry]:
    """Remove the cached tables of ``puzzles`` (every table when empty); the
    entries removed.

    >>> import numpy as np, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name in ("ring", "ring-big"):
    ...     save_array(folder / f"{name}-qtm-a0-0123456789abcdef.table", {}, np.zeros(5, np.uint8))
    >>> [e.puzzle for e in clear_cache(["ring"], folder)], [e.puzzle for e in cache_entries(folder)]
    (['ring'], ['ring-big'])
    """
    import shutil

    removed = []
    for entry in cache_entries(folder):
        if puzzles and entry.puzzle not in puzzles:
            continue
        for path in entry.paths:
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        removed.append(entry)
    return removed


# --- tables in the cache: one naming scheme, one way to load or build -------------

def label_of(*parts: str) -> str:
    """A file label from parts (puzzle name, metric, what), each made safe for a
    file name (a metric of more than 40 characters is ``custom``).

    >>> label_of("minicube<R,U>", "qtm", "a14"), label_of("p", "U,R'")
    ('minicube_R-U_-qtm-a14', 'p-U-Ri')
    """
    safe = []
    for part in parts:
        part = re.sub(r"[^A-Za-z0-9_.-]", "_", part.replace("'", "i").replace(",", "-"))
        safe.append("custom" if len(part) > 40 and part is not parts[0] else part[:40])
    return "-".join(safe) or "puzzle"


def table_file(label: str, key: dict, suffix: str, digest: str | None = None) -> Path:
    """The cache file ``{label}-{digest}.{suffix}`` of what ``key`` describes (the
    stem alone without a suffix: a table in several files); the digest hashes
    the key unless given (a definition's own fingerprint).

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> table_file("ring-qtm", {"size": 6}, "table").name
    'ring-qtm-3442e28393c05b7e.table'
    """
    if digest is None:
        digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
    return cache_dir() / (f"{label}-{digest[:16]}" + (f".{suffix}" if suffix else ""))


def cached_array(path: Path, key: dict, length: int, build: Callable, *, title: str,
                 size: int | None = None, progress: Progress | None = None,
                 cache: bool = True, raw: bool = False) -> tuple[dict, np.ndarray | bytes]:
    """``(header, data)`` of the array cached at ``path`` under ``key`` with
    ``length`` bytes (as bytes with ``raw``: a lookup needs no numpy), else of
    ``build(report)`` run under a progress bar titled ``title`` and saved;
    ``build`` may return ``(array, more)``, ``more`` going into the header, or
    be ``None``: then ``({}, None)`` when nothing is cached.

    >>> import os, tempfile, numpy as np; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> path = table_file("demo", {"n": 3}, "table")
    >>> make = lambda report: (np.arange(3, dtype=np.uint8), {"levels": [3]})
    >>> cached_array(path, {"n": 3}, 3, make, title="demo")[0]["levels"]
    [3]
    >>> header, data = cached_array(path, {"n": 3}, 3, None, title="demo", raw=True)
    >>> header["levels"], data
    ([3], b'\\x00\\x01\\x02')
    """
    if cache:
        loaded = load_bytes(path, key)
        if loaded is not None and loaded[0]["shape"] == [length]:
            if raw:
                return loaded
            import numpy as np

            return loaded[0], np.frombuffer(loaded[1], dtype=np.dtype(loaded[0]["dtype"]))
    if build is None:
        return {}, None
    with building(progress, f"{title} (built once, then cached)", size) as report:
        built = build(report)
    array, more = built if isinstance(built, tuple) else (built, {})
    header = dict(key, **more)
    if cache:
        save_array(path, header, array)
    return header, array


def cached_arrays(stem: Path, key: dict, parts: Sequence[str], build: Callable, *, title: str,
                  size: int | None = None, progress: Progress | None = None,
                  cache: bool = True) -> list[np.ndarray] | None:
    """The arrays of a table kept in several files ``{stem}.{part}`` (a ball,
    a table over symmetry classes), each checked against ``key`` and its part;
    else ``build(report)`` (a list of arrays, or ``None`` when it cannot be
    built) run under a progress bar and saved; ``None`` when they are not
    cached and ``build`` is ``None``.

    >>> import os, tempfile, numpy as np; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> stem = table_file("demo", {"n": 2}, "parts")
    >>> make = lambda report: [np.zeros(2), np.ones(3)]
    >>> [a.tolist() for a in cached_arrays(stem, {"n": 2}, ["a", "b"], make, title="demo")]
    [[0.0, 0.0], [1.0, 1.0, 1.0]]
    >>> len(cached_arrays(stem, {"n": 2}, ["a", "b"], None, title="demo"))   # from the files
    2
    >>> cached_arrays(table_file("other", {"n": 3}, "parts"), {"n": 3}, ["a", "b"], None,
    ...               title="other") is None   # not cached, nothing to build it with
    True
    """
    if cache:
        arrays = [load_array(f"{stem}.{part}", dict(key, part=part)) for part in parts]
        if all(a is not None for a in arrays):
            return arrays
    if build is None:
        return None
    with building(progress, f"{title} (built once, then cached)", size) as report:
        arrays = build(report)
    if arrays is not None and cache:
        for part, array in zip(parts, arrays):
            save_array(f"{stem}.{part}", dict(key, part=part), array)
    return arrays
