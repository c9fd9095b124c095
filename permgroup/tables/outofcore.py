"""2-bit depth tables bigger than memory: shards in files, one level at a time.

The owner-computes scheme of :mod:`permgroup.tables.sharded` over files: each
shard's 2-bit table and frontier are files of a build folder; a level expands
the frontier in pieces, appends each owner's images to its bucket file, then
each owner loads its one shard and marks the unseen images of its buckets.
Memory is bounded by the ``memory`` option, not by the table.

A level is committed by writing ``manifest.json`` atomically; the shards it
changed are new files, which the manifest names.  A build killed at any point
(SIGKILL included) restarts from the last committed level: files the manifest
does not name are what a dead writer left, deleted when a build opens the
folder.  A lock file holding the writer's process id keeps two live builds
out of one folder.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from permgroup.budget import MIN_MEMORY, MemoryBudgetError, parse_memory, size_text
from permgroup.cache import writer_alive
from permgroup.errors import InputError, Interrupted
from permgroup.spaces.space import rank_dtype
from permgroup.progress import Progress
from permgroup.tables import sharded
from permgroup.tables.bfs import COSTS, PackedStore, bottom_up_block
from permgroup.tables.packed import PackedTable, read_codes, reached
from permgroup.tables.store import UNSEEN_CODE

MANIFEST = "manifest.json"
LOCK = "lock"
#: bytes of working memory per rank of a piece (the piece, its images, a sort)
BYTES_PER_PIECE_RANK = 64
#: marking an image here (sorted, routed, written to a bucket and read back),
#: in the units of :data:`permgroup.tables.bfs.COSTS` (measured on the 2x3x3
#: cuboid, whose levels of 89 and 263 million states took 220 and 545 s top-down)
MARK_COST = 20
#: the most shards a build plans (each a file, rewritten on the levels that
#: reach it): less memory than this many shards need is refused, not obeyed
#: with tens of thousands of files
MAX_SHARDS = 1024

def plan(size: int, memory: int) -> tuple[int, int]:
    """Ranks per shard and per piece for a build in ``memory`` bytes: a shard
    takes a quarter of a byte per rank, a piece :data:`BYTES_PER_PIECE_RANK`.

    >>> plan(10**9, 4 * 10**9)   # the whole table is one shard
    (1000000000, 31250000)
    >>> plan(10**9, 10**8)
    (200000000, 781248)
    """
    piece = max(4, (memory // 2 // BYTES_PER_PIECE_RANK) // 4 * 4)
    shard = max(4, min(size + (-size) % 4, (memory * 2) // 4 * 4))
    return shard, piece


def least_memory(size: int) -> int:
    """The least memory in which a build of ``size`` states plans at most
    :data:`MAX_SHARDS` shards (and at least 1 MB).

    >>> least_memory(10**6), least_memory(10**10)
    (1000000, 4882813)
    """
    return max(MIN_MEMORY, -(-size // (2 * MAX_SHARDS)))  # a shard: 2 ranks a byte of memory


def build_out_of_core(space, sources: Sequence[int], folder: str | os.PathLike, *,
                      memory: int | str = "1GB", key: dict | None = None,
                      progress: Progress | None = None, shard_ranks: int | None = None,
                      piece_ranks: int | None = None, build: bool = True) -> PackedTable | None:
    """The 2-bit table of ``space`` from ``sources``, built (or resumed) in
    ``folder`` within about ``memory`` bytes of working memory; the result's
    ``packed`` array is a read-only memory map of the finished table file.
    ``None`` when ``build`` is false and ``folder`` holds no finished build.

    ``key`` (any JSON data, e.g. the space's fingerprint) is stored in the
    manifest; a folder holding a build of another key is refused.
    ``shard_ranks``/``piece_ranks`` override the plan made from ``memory``.

    >>> import tempfile
    >>> from permgroup.spaces.product import FactorSpace
    >>> from permgroup.spaces.space import Factor
    >>> ring = FactorSpace([Factor("cell", 10, np.array([[*range(1, 10), 0], [9, *range(9)]]))])
    >>> folder = tempfile.mkdtemp()
    >>> t = build_out_of_core(ring, [0], folder, shard_ranks=4, key="a")
    >>> t.distribution(), t.depths_of(np.array([5, 9])).tolist()
    ([1, 2, 2, 2, 2, 1], [5, 1])
    >>> build_out_of_core(ring, [0], tempfile.mkdtemp(), key="a", build=False) is None
    True
    >>> build_out_of_core(ring, [0], folder, shard_ranks=4, key="b")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: ...: it holds a build of another table (key 'a', not 'b')
    >>> big = FactorSpace([Factor("cell", 10**10, np.zeros((1, 1), dtype=np.int64))])
    >>> build_out_of_core(big, [0], folder, memory="1MB")   # refused before any file is written
    Traceback (most recent call last):
    ...
    permgroup.budget.MemoryBudgetError: an out-of-core build of 10,000,000,000 states in 1.0 MB of memory would write 5,000 shards (files, each level), more than 1,024; give it at least 4.9 MB (--memory 5MB)
    """
    folder = Path(folder)
    if not build:
        done = _read_manifest(folder)
        if not (done and done["key"] == key and done.get("table")):
            return None
    memory = parse_memory(memory)
    shard, piece = plan(space.size, memory)
    if shard_ranks is None and memory < least_memory(space.size):
        least = least_memory(space.size)
        raise MemoryBudgetError(
            f"an out-of-core build of {space.size:,} states in {size_text(memory)} of memory "
            f"would write {-(-space.size // shard):,} shards (files, each level), more than "
            f"{MAX_SHARDS:,}; give it at least {size_text(least)} (--memory "
            f"{-(-least // 10**6)}MB)")
    shard, piece = shard_ranks or shard, piece_ranks or piece
    if shard % 4:
        raise ValueError("shard_ranks must be a multiple of 4")
    transport = _FileTransport(folder, space, sources, key, shard, piece, memory)
    with transport.locked():
        try:
            sharded.run(transport, progress)
        except KeyboardInterrupt:
            if transport.manifest is not None:
                # the level under way is dropped, the committed ones kept for a resume
                transport.sweep()
            done = len(transport.manifest["levels"]) - 1 if transport.manifest else 0
            raise Interrupted(f"the out-of-core build in {folder} stopped after level {done}; "
                              "the same command goes on from there, permgroup cache clear "
                              "removes it") from None
        if not transport.manifest.get("table"):
            transport.finish()
    manifest = transport.manifest
    packed = np.memmap(folder / manifest["table"], dtype=np.uint8, mode="r")
    return PackedTable(space, manifest["sources"], packed, manifest["levels"])


def _read_manifest(folder: Path) -> dict | None:
    try:
        return json.loads((folder / MANIFEST).read_text())
    except FileNotFoundError:
        return None


class _FileTransport:
    """Shards and frontiers in the files of a build folder, a level committed
    by its manifest."""

    def __init__(self, folder: Path, space, sources, key, shard: int, piece: int, memory: int):
        self.path, self.space, self.sources, self.key = folder, space, sources, key
        self.shard, self.piece = shard, piece
        # images already seen are dropped before they are written out when the
        # table's files fit well within the memory allowed (read through maps)
        self.screen = (space.size + 3) // 4 <= memory // 2
        self.manifest: dict | None = None
        folder.mkdir(parents=True, exist_ok=True)

    @contextmanager
    def locked(self) -> Iterator[None]:
        path = self.path / LOCK
        while True:
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
                break
            except FileExistsError:
                try:
                    pid = int(path.read_text() or 0)
                except (FileNotFoundError, ValueError):
                    pid = 0
                if pid and pid != os.getpid() and writer_alive(pid):
                    raise InputError(f"{self.path}: another build (process {pid}) is "
                                     "writing this folder") from None
                path.unlink(missing_ok=True)  # its writer is dead
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))
        try:
            yield
        finally:
            path.unlink(missing_ok=True)

    def _write(self, name: str, chunks: Iterable) -> int:
        """Write the chunks (bytes or arrays, one at a time: a generator keeps
        memory small) under ``name``, atomically; the bytes written."""
        tmp = self.path / f"{name}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            written = sum(f.write(chunk) for chunk in chunks)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path / name)
        return written

    def _save(self, manifest: dict) -> None:
        """Commit ``manifest`` and delete the files it no longer names."""
        self._write(MANIFEST, [json.dumps(manifest, sort_keys=True).encode()])
        self.manifest = manifest
        self.sweep()

    def sweep(self) -> None:
        """Delete the files the committed manifest does not name."""
        keep = {MANIFEST, LOCK}
        if self.manifest:
            keep.update(self.manifest["shards"], self.manifest["frontier"],
                        [self.manifest.get("table")])
        for f in self.path.iterdir():
            if f.name not in keep and f.is_file():
                f.unlink()

    def start(self) -> list[int]:
        manifest = _read_manifest(self.path)
        if manifest is not None and (manifest["key"] != self.key
                                     or manifest["size"] != self.space.size):
            raise InputError(f"{self.path}: it holds a build of another table "
                             f"(key {manifest['key']!r}, not {self.key!r})")
        self.manifest = manifest
        self.sweep()
        if manifest is None:
            self._first()
        # a resumed build keeps the shards it was started with
        self.shard, self.dtype = self.manifest["shard_ranks"], np.dtype(self.manifest["dtype"])
        return self.manifest["levels"]

    def level(self, depth: int) -> int:
        manifest = self.manifest
        if not manifest["count"] or manifest.get("table"):
            return 0
        maps = ([np.memmap(self.path / name, dtype=np.uint8, mode="r")
                 for name in manifest["shards"]] if self.screen else None)
        unseen = self.space.size - sum(manifest["levels"])
        if self.screen and (manifest["count"] * (COSTS["step"] + MARK_COST)
                            > unseen / 2 * (COSTS["step"] + COSTS["read"])):
            owners, fill = range(len(maps)), self._bottom_up(depth, maps)
        else:
            owners, fill = self._expand(depth, maps)
        del maps
        self._commit(owners, fill)
        return self.manifest["count"]

    def _first(self) -> None:
        size, shard = self.space.size, self.shard
        n_shards = -(-size // shard)
        sources = np.unique(np.asarray(self.sources, dtype=rank_dtype(size)))
        manifest = {"key": self.key, "size": size, "shard_ranks": shard, "n_shards": n_shards,
                    "sources": sources.tolist(), "levels": [len(sources)], "count": len(sources),
                    "dtype": sources.dtype.str, "shards": [], "frontier": []}
        for i in range(n_shards):
            part, mine = sharded.start(i * shard, min(size, (i + 1) * shard), sources)
            manifest["shards"].append(f"shard-0-{i}.bin")
            self._write(manifest["shards"][-1], [part])
            if len(mine):
                manifest["frontier"].append(f"frontier-0-{i}.bin")
                self._write(manifest["frontier"][-1], [mine])
        self._save(manifest)

    def _pieces(self, name: str):
        path, dtype = self.path / name, self.dtype
        total = path.stat().st_size // dtype.itemsize
        for lo in range(0, total, self.piece):
            yield np.fromfile(path, dtype=dtype, count=min(self.piece, total - lo),
                              offset=lo * dtype.itemsize)

    def _expand(self, depth: int, maps):
        """Top-down: the frontier's images appended to their owners' buckets
        (less those ``maps`` shows seen); the owners with a bucket, and the
        ``fill`` that marks a bucket's unseen images."""
        shard, dtype = self.shard, self.dtype
        bounds = sharded.layout(self.space.size, shard_ranks=shard)[1]
        buckets = {}
        try:
            for name in self.manifest["frontier"]:
                for part in self._pieces(name):
                    for m in range(self.space.n_moves):
                        routed = sharded.expand(self.space, part, [m], bounds)
                        for owner, chunk in enumerate(routed):
                            if len(chunk) and maps is not None:
                                local = chunk - dtype.type(owner * shard)
                                chunk = chunk[read_codes(maps[owner], local) == UNSEEN_CODE]
                            if not len(chunk):
                                continue
                            if owner not in buckets:
                                buckets[owner] = open(
                                    self.path / f"bucket-{depth + 1}-{owner}.bin", "ab")
                            chunk.tofile(buckets[owner])
        finally:
            for f in buckets.values():
                f.close()

        def fill(owner: int, table: np.ndarray) -> Iterator[np.ndarray]:
            for part in self._pieces(f"bucket-{depth + 1}-{owner}.bin"):
                yield sharded.mark(table, owner * shard, (depth + 1) % 3, part)

        return sorted(buckets), fill

    def _bottom_up(self, depth: int, maps):
        """Bottom-up: the ``fill`` that asks of an owner's unseen ranks whether
        a predecessor is on the last level (read in the committed shards' maps)."""
        shard, last = self.shard, depth % 3
        piece = self.piece + (-self.piece) % 4

        def on_last(ranks: np.ndarray) -> np.ndarray:
            if len(maps) == 1:
                return read_codes(maps[0], ranks) == last
            owners = ranks // shard
            out = np.empty(len(ranks), dtype=np.uint8)
            for o in np.unique(owners):
                sel = owners == o
                out[sel] = read_codes(maps[o], ranks[sel] - o * shard)
            return out == last

        def fill(owner: int, table: np.ndarray) -> Iterator[np.ndarray]:
            lo = owner * shard
            store = PackedStore(min(self.space.size - lo, shard), table)
            for a in range(0, store.size, piece):
                todo, left = bottom_up_block(self.space, store, a, min(store.size, a + piece),
                                             depth, on_last, lo)
                yield (reached(todo, left) + (lo + a)).astype(self.dtype)

        return fill

    def _commit(self, owners, fill) -> None:
        """Each owner's shard given to ``fill(owner, table)``, which marks the
        next level in it and yields those ranks; the changed shards and the
        frontier written as new files, the level committed."""
        manifest = self.manifest
        nxt = len(manifest["levels"])
        shards, frontier, count = list(manifest["shards"]), [], 0
        for owner in owners:
            table = np.fromfile(self.path / shards[owner], dtype=np.uint8)
            fresh_name = f"frontier-{nxt}-{owner}.bin"
            found = self._write(fresh_name, fill(owner, table)) // self.dtype.itemsize
            if found:  # else the empty frontier file is swept
                frontier.append(fresh_name)
                shards[owner] = f"shard-{nxt}-{owner}.bin"
                self._write(shards[owner], [table])
                count += found
        self._save(dict(manifest, shards=shards, frontier=frontier, count=count,
                        levels=manifest["levels"] + ([count] if count else [])))

    def finish(self) -> None:
        """Join the shards into one table file (a shard's bytes end on a whole
        byte, since shards hold a multiple of 4 ranks), read one at a time."""
        self._write("table.bin", ((self.path / shard).read_bytes()
                                  for shard in self.manifest["shards"]))
        self._save(dict(self.manifest, table="table.bin", frontier=[], shards=[]))
