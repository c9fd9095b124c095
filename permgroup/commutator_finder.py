"""Short words that touch few pieces, for people: commutators ``[A, B]``, their
conjugates ``[S: [A, B]]`` and plain short words, grouped by what they do.

The words come from the generic solver's tools (:mod:`permgroup.solver.commutators`:
commutators of single moves whose supports meet in one or two pieces, the
twists made of two of them, and their conjugates); this module names their
effects on the puzzle's pieces (found from the moves, :mod:`permgroup.pieces`)
in words ("3-cycle of corners", "2 corners twisted"), writes them in bracket
notation, and answers a request for one effect by conjugating a known word
into place.

>>> from permgroup.explore import load_puzzle
>>> table = commutators(load_puzzle("cube3"))
>>> best = table.groups()["3-cycle of corners"][0]
>>> best.length, best.form
(8, "[R, U L U']")
"""
from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from html import escape
from itertools import product

import numpy as np

from permgroup.budget import Budget
from permgroup.elements import Element, piece_form
from permgroup.errors import InputError
from permgroup.metric import Metric
from permgroup.moves import MoveSet, gather_of, scatter_of
from permgroup.pieces import find_pieces, piece_kinds
from permgroup.puzzle import Puzzle


#: commutators get setups of two letters when the cheap letters are at most this many
SETUP_PAIRS_UP_TO = 24


@dataclass(frozen=True)
class Found:
    """A word, how it is built (``form``), its length in the metric, and what it does."""

    word: tuple[str, ...]
    form: str
    length: int
    effect: str
    element: Element

    def _repr_html_(self) -> str:
        picture = self.element.state()._repr_svg_() if self.element.puzzle.solved else ""
        return (f"<div><code>{escape(self.form)}</code> = <code>{escape(' '.join(self.word))}"
                f"</code> ({self.length} moves): {escape(self.effect)}<div>{picture}</div></div>")


@dataclass(frozen=True)
class CommutatorTable:
    """Words found for a puzzle, shortest first; :meth:`groups` by effect."""

    puzzle: str
    metric: str
    found: tuple[Found, ...]

    def groups(self) -> dict[str, list[Found]]:
        """Effect -> its words, shortest first; effects in order of their shortest word."""
        out: dict[str, list[Found]] = {}
        for f in self.found:
            out.setdefault(f.effect, []).append(f)
        return out

    def __str__(self) -> str:
        lines = [f"{self.puzzle} ({self.metric}):"]
        for effect, words in self.groups().items():
            lines.append(f"  {effect}:")
            lines += [f"    {f.length:3d}  {f.form}" for f in words]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = []
        for effect, words in self.groups().items():
            for f in words:
                picture = f.element.state()._repr_svg_() if f.element.puzzle.solved else ""
                rows.append(f"<tr><td>{escape(effect)}</td><td>{f.length}</td>"
                            f"<td><code>{escape(f.form)}</code></td><td>{picture}</td></tr>")
        return (f"<div><b>{escape(self.puzzle)}</b> ({escape(self.metric)})<table><tr>"
                f"<th>effect</th><th>moves</th><th>word</th><th>after it, from solved</th></tr>"
                f"{''.join(rows)}</table></div>")


# --- effects in words ------------------------------------------------------------------
def _plural(kind: str, count: int) -> str:
    """``corner`` -> ``corners``; an orbit named ``tip2`` (a second orbit of tips)
    is still tips, one named ``P3b`` (found, unnamed) pieces."""
    noun = "piece" if re.fullmatch(r"P\d+[a-z]?", kind) else re.sub(r"\d+$", "", kind)
    return noun if count == 1 else noun + "s"


def effect_text(element: Element, kinds: dict[str, tuple[tuple[int, ...], ...]]) -> tuple[str, int]:
    """What an element does to the pieces, in words, and how many pieces it touches.

    >>> from permgroup.puzzle import Puzzle
    >>> p = Puzzle("p", 6, {}, pieces={"bar": ((0, 1), (2, 3), (4, 5))})
    >>> effect_text(Element(p, (2, 3, 4, 5, 0, 1)), p.pieces)
    ('3-cycle of bars', 3)
    >>> effect_text(Element(p, (1, 0, 3, 2, 4, 5)), p.pieces)
    ('2 bars flipped', 2)
    """
    moved: dict[str, list[tuple[int, int]]] = {}
    turned: dict[str, list[int]] = {}
    touched = 0
    for kind, pieces in kinds.items():
        form = piece_form(pieces, element.perm, kind)
        noun = _plural(kind, 2)
        for c, t in form.cycles():
            touched += len(c)
            if len(c) > 1:
                moved.setdefault(noun, []).append((len(c), t))
            else:
                turned.setdefault(noun, []).append(form.modulus)
    parts = []
    for noun, cycles in moved.items():
        lengths: dict[tuple[int, bool], int] = {}
        for n, t in cycles:
            lengths[n, bool(t)] = lengths.get((n, bool(t)), 0) + 1
        for (n, twist), count in sorted(lengths.items()):
            what = "swap" if n == 2 else f"{n}-cycle"
            text = f"{what} of {noun}" if count == 1 else f"{count} {what}s of {noun}"
            parts.append(text + (" (turned)" if twist else ""))
    for noun, moduli in turned.items():
        verb = "flipped" if set(moduli) == {2} else "twisted"
        parts.append(f"{len(moduli)} {noun if len(moduli) > 1 else noun[:-1]} {verb}")
    return (" and ".join(parts) or "nothing"), touched


# --- bracket forms -------------------------------------------------------------------------
def _as_commutator(word: Sequence[str], inverse_name) -> str | None:
    """``[A, B]`` when ``word`` reads ``A B A' B'``."""
    n = len(word)
    for i in range(1, n):
        for j in range(i + 1, n):
            a, b, rest = list(word[:i]), list(word[i:j]), list(word[j:])
            if rest == [inverse_name(m) for m in reversed(a)] + [inverse_name(m) for m in
                                                                 reversed(b)]:
                return f"[{' '.join(a)}, {' '.join(b)}]"
    return None


class _Finder:
    """The solver's tool table for one puzzle and metric, with names and pieces."""

    def __init__(self, puzzle: Puzzle, metric: Metric) -> None:
        from permgroup.solver import model

        self.puzzle, self.metric = puzzle, metric
        self.ms = MoveSet.from_puzzle(puzzle, metric)
        from permgroup.solver.commutators import cheap_letters

        # setups of two letters where there are few letters (the 3x3x3's edge
        # 3-cycles need them); one where there are many (the Megaminx: 48)
        two = len(cheap_letters(self.ms, 2)) <= SETUP_PAIRS_UP_TO
        self.model = model(self.ms, setup_length=2 if two else 1)
        self.kinds = piece_kinds(find_pieces(puzzle.degree, list(puzzle.generators.values())),
                                 puzzle.pieces)
        ms = self.ms
        self.inverse_of = {}
        for name, (c, e) in ms.named_letters().items():
            back = ms.spelling[c][-e % ms.orders[c]]
            self.inverse_of[name] = back[0] if back is not None and len(back) == 1 else None

    def inverse_name(self, name: str) -> str:
        return self.inverse_of.get(name) or f"({name})'"

    def names(self, letters) -> list[str]:
        return list(self.ms.names(list(letters)))

    def form(self, i: int) -> str:
        """Row ``i`` of the tool table as ``[S: [A, B]]`` (or its plain word)."""
        table = self.model.table
        setups = []
        while table.parent[i] >= 0:
            setups.append(self.names([(int(table.setup[i, 0]), int(table.setup[i, 1]))])[0])
            i = int(table.parent[i])
        base = self.names(table.word(i))
        inner = _as_commutator(base, self.inverse_name) or " ".join(base)
        if setups:
            return f"[{' '.join(reversed(setups))}: {inner}]"
        return inner

    def element(self, i: int) -> Element:
        """Row ``i``'s effect as an element (the row is in gather form: after the
        word, ``state[pos] = before[src]``)."""
        table = self.model.table
        gather = list(range(self.puzzle.degree))
        for x, y in zip(table.pos[i].tolist(), table.src[i].tolist()):
            if x < self.puzzle.degree:
                gather[x] = y
        return Element(self.puzzle, scatter_of(gather))

    def found(self, i: int, element: Element | None = None, effect: str | None = None
              ) -> Found:
        word = tuple(self.names(self.model.table.word(i)))
        element = self.element(i) if element is None else element
        if effect is None:
            effect, _ = effect_text(element, self.kinds)
        return Found(word, self.form(i), len(word), effect, element)

    @cached_property
    def piece_ids(self) -> np.ndarray:
        """The piece of each sticker (``-1`` for none, and at ``degree``), numbered
        kind by kind; computed once."""
        piece = np.full(self.puzzle.degree + 1, -1, dtype=np.int64)
        number = 0
        for pieces in self.kinds.values():
            for p in pieces:
                piece[list(p)] = number
                number += 1
        return piece

    def touched(self) -> np.ndarray:
        """How many pieces each row of the tool table moves or turns."""
        ids = np.sort(self.piece_ids[self.model.table.pos], axis=1)
        fresh = (ids[:, 1:] != ids[:, :-1]) & (ids[:, 1:] >= 0)
        return fresh.sum(axis=1) + (ids[:, 0] >= 0)


def commutators(puzzle: Puzzle, *, metric: Metric = "qtm", max_pieces: int = 4,
                per_effect: int = 3, plain_length: int = 3) -> CommutatorTable:
    """The shortest words found of the forms ``[A, B]``, ``[S: [A, B]]`` and plain
    words of at most ``plain_length`` moves that touch at most ``max_pieces``
    pieces, at most ``per_effect`` for each effect, shortest first (see the
    module docstring)."""
    finder = _Finder(puzzle, metric)
    table = finder.model.table
    touched = finder.touched()
    small = (touched > 0) & (touched <= max_pieces)
    order = np.flatnonzero(small)[np.argsort(table.cost[small], kind="stable")]
    candidates: list[Found] = []
    seen: set[tuple[int, ...]] = set()
    counts: dict[str, int] = {}

    def wanted(element: Element, effect: str, pieces: int) -> bool:
        return (element.perm not in seen and 0 < pieces <= max_pieces
                and counts.get(effect, 0) < per_effect)

    def keep(found: Found) -> None:
        counts[found.effect] = counts.get(found.effect, 0) + 1
        seen.add(found.element.perm)
        candidates.append(found)

    for i in order.tolist():
        element = finder.element(i)
        if element.perm in seen:  # (naming the effect is the loop's dearest part)
            continue
        effect, pieces = effect_text(element, finder.kinds)
        if wanted(element, effect, pieces):
            keep(finder.found(i, element, effect))
    piece = finder.piece_ids[:-1]
    single = {name: np.asarray(Element.from_word(puzzle, name).perm)
              for name in finder.ms.move_names}
    for word in _plain_words(finder, plain_length):
        perm = single[word[0]]
        for name in word[1:]:  # p then q: p's sticker at i goes where q sends p[i]
            perm = single[name][perm]
        moved = piece[np.flatnonzero(perm != np.arange(len(piece)))]
        if not 0 < len(np.unique(moved[moved >= 0])) <= max_pieces:
            continue  # touches too many pieces: no need to parse it and name what it does
        element = Element.from_word(puzzle, " ".join(word))
        effect, pieces = effect_text(element, finder.kinds)
        if wanted(element, effect, pieces):
            keep(Found(word, " ".join(word), len(word), effect, element))
    candidates.sort(key=lambda f: f.length)
    return CommutatorTable(puzzle.name, str(metric), tuple(candidates))


def _plain_words(finder: _Finder, length: int, limit: int = 3000):
    """Words of at most ``length`` moves in which no move follows itself or its
    inverse (those are shorter words), at most ``limit`` of them."""
    names = list(finder.ms.move_names)
    count = 0
    for n in range(1, length + 1):
        for word in product(names, repeat=n):
            if any(b in (a, finder.inverse_name(a)) for a, b in zip(word, word[1:])):
                continue
            count += 1
            if count > limit:
                return
            yield word


def commutator_for(target: Element, *, metric: Metric = "qtm", budget: Budget | None = None,
                   max_rows: int = 3_000_000) -> Found:
    """The shortest word found whose effect is exactly ``target``'s, by
    conjugating known commutators into place level by level; an
    :class:`InputError` when none is found within the ``budget`` (ten seconds
    without one).

    >>> from permgroup.explore import load_puzzle
    >>> cube = load_puzzle("cube3")
    >>> setup, a, b = (Element.from_word(cube, w) for w in ("F2", "R", "U L U'"))
    >>> aim = a.commutator(b).conjugate(setup)
    >>> found = commutator_for(aim)
    >>> found.element == aim, found.length <= 12, found.effect
    (True, True, '3-cycle of corners')
    """
    from permgroup.solver.commutators import cheap_letters

    budget = budget if budget is not None else Budget.of(10)
    finder = _Finder(target.puzzle, metric)
    # grown here, not in the solver's own table (kept as the solver built it)
    table = copy.copy(finder.model.table)
    table._seen, table._variants = copy.copy(table._seen), copy.copy(table._variants)
    gather = gather_of(target.perm)
    pos = np.flatnonzero(gather != np.arange(len(gather))).astype(np.int32)
    if not len(pos):
        raise InputError("the target moves nothing: the empty word does it")
    if len(pos) > table.width:
        raise InputError(f"the target moves {len(pos)} stickers; the words known here move "
                         f"at most {table.width}")
    src = gather[pos].astype(np.int32)
    want_pos = np.full((1, table.width), finder.ms.degree, dtype=np.int32)
    want_src = want_pos.copy()
    want_pos[0, :len(pos)], want_src[0, :len(src)] = pos, src
    key = int(table._hash(want_pos, want_src)[0])
    while True:
        if table._seen.contains(np.array([key], dtype=np.uint64))[0]:
            hashes = table._hash(table.pos, table.src)
            rows = np.flatnonzero(hashes == np.uint64(key))
            rows = [int(r) for r in rows
                    if (table.pos[r] == want_pos[0]).all() and (table.src[r] == want_src[0]).all()]
            if rows:
                best = min(rows, key=lambda r: table.cost[r])
                return finder.found(best)
        if budget.expired or table.size >= max_rows:
            reason = budget.stop_reason() or f"the limit of {max_rows:,} words"
            raise InputError(f"no word found for the target within {reason} "
                             f"({table.size:,} words tried)")
        if not table.grow(cheap_letters(finder.ms, 1), limit=max_rows):
            raise InputError("no word found for the target: conjugating the known words "
                             "reaches nothing new")
