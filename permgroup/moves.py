"""A puzzle's moves as words are made of them: gather arrays grouped into
cyclic classes (a move and its powers), with the word arithmetic of the solver,
the shortener and the printer.

Every entry of the move dictionary counts as one move.  Moves that are powers
of one another form a *class* ``g, g^2, ..., g^(o-1)``; a word is kept as a
list of ``(class, exponent)`` letters, and a letter's cost is the fewest moves of
its class that make that power (``g^3`` of a quarter turn costs one, ``g'``).
Applying a move ``p`` to a state gives ``state[p]`` (gather form: Santa's
``new[i] = old[p[i]]``), so a word's permutation is ``p1[p2][p3]...``.  The
engine's moves are in scatter form (:mod:`permgroup.perm` says why each layer
holds the form it does); :func:`gather_of` and :meth:`MoveSet.scatter` are the
one conversion between them, and :meth:`MoveSet.from_puzzle` builds the moves of
a puzzle's metric through it.

>>> import numpy as np
>>> t = np.array([1, 2, 3, 0])
>>> ms = MoveSet.from_moves({"t": t, "-t": np.argsort(t)})
>>> ms.classes, ms.orders
(['t'], [4])
>>> ms.reduce([(0, 1), (0, 1), (0, 1)])
[(0, 3)]
>>> ms.names([(0, 3)]), ms.cost([(0, 3)])
(['-t'], 1)
>>> ms.format(ms.parse("t t t")), ms.format(ms.parse("t.t"), ".")
('-t', 't.t')
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

#: a letter of a word over a :class:`MoveSet`: (class index, exponent in
#: 1 .. order-1); the indices address arrays in the solver's loops, where a
#: word as read (:data:`permgroup.formats.alg.Letter`) names its moves
Letter = tuple[int, int]


def gather_of(scatter) -> np.ndarray:
    """The gather array of a move given in scatter form (where each sticker
    goes, the engine's form): its inverse, since after the move the sticker
    at ``p[i]`` came from ``i``.  The one conversion from the engine's form.

    >>> gather_of((1, 2, 0)).tolist()
    [2, 0, 1]
    """
    p = np.asarray(scatter)
    out = np.empty(len(p), dtype=np.int32)
    out[p] = np.arange(len(p), dtype=np.int32)
    return out


def perm_order(p: np.ndarray) -> int:
    """The order of a permutation given as an index array.

    >>> perm_order(np.array([1, 2, 0, 4, 3]))
    6
    """
    from math import lcm

    p = np.asarray(p)
    # every position followed at once: a cycle's length is the first step that
    # brings its positions back (a few steps for a big cube's moves)
    start = np.flatnonzero(p != np.arange(len(p)))
    at, out, step = p[start], 1, 1
    while len(start):
        back = at == start
        if back.any():
            out = lcm(out, step)
            start, at = start[~back], at[~back]
        at, step = p[at], step + 1
    return out


def scatter_of(gather) -> tuple[int, ...]:
    """The scatter form (the engine's) of a move given as a gather array: the
    same inversion as :func:`gather_of`, the one conversion back.

    >>> scatter_of([2, 0, 1])
    (1, 2, 0)
    """
    return tuple(int(v) for v in gather_of(gather))


def commuting(base: np.ndarray) -> np.ndarray:
    """``[a, b]``: whether moves ``a`` and ``b`` (rows of gather arrays) commute.
    Moves whose supports are disjoint do; a pair sharing a point is compared on
    the points either moves, in blocks: thousands of moves (a transposition of
    every pair of 200 points) take seconds, not hours.

    >>> commuting(np.array([[1, 0, 2, 3], [0, 1, 3, 2], [0, 2, 1, 3]])).astype(int).tolist()
    [[1, 1, 0], [1, 1, 0], [0, 0, 1]]
    """
    from permgroup.budget import Budget

    k, n = base.shape
    Budget.of().require(k * k, f"the table of which of {k:,} moves commute",
                        "a puzzle of fewer moves (a subgroup)")
    moved = base != np.arange(n)
    size = moved.sum(axis=1)
    # each move's support, padded with point n, which every move fixes
    width = max(1, int(size.max(initial=0)))
    support = np.full((k, width), n, dtype=np.int64)
    rows, cols = np.nonzero(moved)
    support[rows, np.arange(len(rows)) - np.searchsorted(rows, rows)] = cols
    extended = np.concatenate([base, np.full((k, 1), n, dtype=base.dtype)], axis=1)
    points, movers = np.nonzero(moved.T)
    movers = movers.astype(np.int64)
    starts = np.searchsorted(points, np.arange(n + 1))
    meeting = [movers[starts[x]:starts[x + 1]] for x in range(n) if starts[x + 1] - starts[x] > 1]
    if sum(len(who) ** 2 for who in meeting) * 4 <= k * k:  # few pairs: listed (a sparse table)
        code = [who[i] * k + who[j] for who in meeting for i, j in [np.triu_indices(len(who), 1)]]
        code = np.sort(np.concatenate(code)) if code else np.zeros(0, np.int64)
        code = code[np.flatnonzero(np.diff(code, prepend=-1))]  # a pair meeting twice, once
        a_all, b_all = code // k, code % k
    else:  # a pair meeting in several points is compared once
        meet = np.zeros((k, k), dtype=bool)
        for who in meeting:
            meet[np.ix_(who, who)] = True
        a_all, b_all = np.nonzero(meet)
        del meet
        a_all, b_all = a_all[a_all < b_all], b_all[a_all < b_all]
    commute = np.ones((k, k), dtype=bool)
    wide = np.maximum(size[a_all], size[b_all])
    order = np.argsort(wide, kind="stable")  # pairs of narrow moves padded only to their width
    a_all, b_all, wide = a_all[order], b_all[order], wide[order]
    lo, block = 0, 1 << 20  # index entries compared at once
    while lo < len(a_all):
        # at most a block of pairs as wide as this one, then as wide as the widest of them
        hi = min(lo + max(1, block // max(1, int(wide[lo]))), len(a_all))
        hi = min(lo + max(1, block // max(1, int(wide[hi - 1]))), len(a_all))
        a, b = a_all[lo:hi], b_all[lo:hi]
        w = max(1, int(wide[hi - 1]))
        at = np.concatenate([support[a, :w], support[b, :w]], axis=1)  # where either moves
        a2, b2 = a[:, None], b[:, None]
        ab, ba = extended[a2, extended[b2, at]], extended[b2, extended[a2, at]]
        commute[a, b] = commute[b, a] = (ab == ba).all(axis=1)
        lo = hi
    return commute


@dataclass
class MoveSet:
    """The moves of one puzzle (see the module docstring).

    ``classes[c]`` names the class's base move, ``powers[c][e]`` is the gather
    array of ``g^e`` and ``spelling[c][e]`` the cheapest list of move names making
    it.  ``commute[c, d]`` says whether the two classes commute.
    """

    move_names: list[str]
    gather: np.ndarray
    classes: list[str]
    orders: list[int]
    powers: list[list[np.ndarray]]
    spelling: list[list[list[str]]]
    commute: np.ndarray
    support: list[np.ndarray]
    _fingerprint: str = field(default="", repr=False)

    @classmethod
    def from_moves(cls, moves: Mapping[str, Sequence[int] | np.ndarray]) -> "MoveSet":
        """Group ``moves`` (name -> gather array) into cyclic classes.

        >>> MoveSet.from_moves({"t": np.array([*range(1, 10007), 0])})   # a 10,007-cycle
        Traceback (most recent call last):
        ...
        permgroup.errors.InputError: move t has order 10007: too many powers to keep (at most 10,000)
        """
        from permgroup.errors import InputError
        from permgroup.metric import MAX_POWERS

        names = list(moves)
        gather = np.array([np.asarray(moves[n]) for n in names], dtype=np.int32)
        n = gather.shape[1]
        rows = {g.tobytes(): i for i, g in enumerate(gather)}
        identity = np.arange(n, dtype=np.int32).tobytes()
        owner = [-1] * len(names)
        classes, orders, powers, spelling = [], [], [], []
        for i, name in enumerate(names):
            if owner[i] >= 0 or gather[i].tobytes() == identity:
                continue
            c = len(classes)
            order = perm_order(gather[i])
            if order > MAX_POWERS:  # every power is kept: memory and time grow with the order
                raise InputError(f"move {name} has order {order}: too many powers to keep "
                                 f"(at most {MAX_POWERS:,})")
            pw = [np.arange(n, dtype=np.int32), gather[i]]
            for _ in range(order - 2):
                pw.append(pw[-1][gather[i]])
            # the moves of the dictionary that are powers of this one
            members = {}
            for e in range(1, order):
                j = rows.get(pw[e].tobytes())
                if j is not None and owner[j] < 0:
                    owner[j] = c
                    members[e] = names[j]
            # cheapest spelling of each power from the members (a shortest path in Z_order)
            best: dict[int, list[str]] = {0: []}
            frontier = [0]
            while frontier:
                grown = []
                for e in frontier:
                    for step, move in members.items():
                        f = (e + step) % order
                        if f not in best:
                            best[f] = best[e] + [move]
                            grown.append(f)
                frontier = grown
            classes.append(name)
            orders.append(order)
            powers.append(pw)
            spelling.append([best.get(e) for e in range(order)])
        k = len(classes)
        base = np.array([p[1] for p in powers], dtype=np.int32) if k else np.zeros((0, n), np.int32)
        commute = commuting(base)
        support = [np.flatnonzero(base[c] != np.arange(n)) for c in range(k)]
        return cls(names, gather, classes, orders, powers, spelling, commute, support)

    @classmethod
    def from_puzzle(cls, puzzle, metric="qtm", rename: Mapping[str, str] | None = None
                    ) -> "MoveSet":
        """The moves that count as one in ``metric`` of a
        :class:`~permgroup.puzzle.Puzzle` (:func:`permgroup.metric.metric_moves`),
        converted to gather form here; ``rename`` gives some of them the names
        their file uses (Santa's ``-X`` for ``X'``: a definition's derived moves
        that only rename an inverse), so words print as the file writes them.

        >>> from permgroup.puzzle import Puzzle
        >>> ms = MoveSet.from_puzzle(Puzzle("p", 3, {"T": (1, 2, 0)}), "htm")
        >>> ms.move_names, ms.gather.tolist()
        (['T', "T'"], [[2, 0, 1], [1, 2, 0]])
        >>> ms = MoveSet.from_puzzle(Puzzle("p", 4, {"T": (1, 2, 3, 0)}), "qtm", {"T'": "-T"})
        >>> ms.format(ms.parse("T T T")), ms.move_names
        ('-T', ['T', '-T'])
        """
        from permgroup.metric import metric_moves

        rename = rename or {}
        return cls.from_moves({rename.get(name, name): gather_of(p)
                               for name, p in metric_moves(puzzle, metric).items()})

    @property
    def degree(self) -> int:
        return int(self.gather.shape[1])

    def fingerprint(self) -> str:
        """A hash of the moves (names and arrays): the key of anything cached for them."""
        if not self._fingerprint:
            h = hashlib.sha256()
            for name, g in zip(self.move_names, self.gather):
                h.update(name.encode() + b"\0" + g.astype(np.int32).tobytes())
            self._fingerprint = h.hexdigest()[:24]
        return self._fingerprint

    def scatter(self, c: int, e: int = 1) -> tuple[int, ...]:
        """Letter ``(c, e)`` in scatter form (where each sticker goes, the
        engine's form): the other half of the one conversion (:func:`gather_of`).

        >>> MoveSet.from_moves({"t": np.array([2, 0, 1])}).scatter(0)
        (1, 2, 0)
        """
        return scatter_of(self.powers[c][e % self.orders[c]])

    def parse(self, text: str) -> list[Letter]:
        """A word read by the one reader of moves (:mod:`permgroup.formats.alg`:
        powers, ``'`` and ``-X`` inverses, ``.``, brackets) as letters.

        >>> import numpy as np
        >>> t = np.array([1, 2, 3, 0])
        >>> MoveSet.from_moves({"t": t, "-t": np.argsort(t)}).parse("[t: t2] -t.t'")
        [(0, 1), (0, 2), (0, 3), (0, 3), (0, 3)]
        """
        from permgroup.formats.alg import expand

        single = self.named_letters()
        out = []
        for name, k in expand(text, single, "moves"):
            c, e = single[name]
            out.append((c, e * k % self.orders[c]))
        return [x for x in out if x[1]]

    def format(self, word: Sequence[Letter], separator: str = " ") -> str:
        """The one printer of words: ``word`` reduced (:meth:`reduce`: powers of a
        move merged where the moves allow, ``L L`` is ``L2`` when ``L2`` is one
        move) and spelled with the moves' own names, so that a word reads in
        the notation its moves came in (``R'`` from a cube, ``-r0`` from Santa's
        files; ``.`` is Santa's separator)."""
        return separator.join(self.names(self.reduce(word)))

    def named_letters(self) -> dict[str, Letter]:
        """Each move name as the letter it spells.

        >>> t = np.array([1, 2, 3, 0])
        >>> MoveSet.from_moves({"t": t, "-t": np.argsort(t)}).named_letters()
        {'t': (0, 1), '-t': (0, 3)}
        """
        index: dict[str, Letter] = {}
        for c, spellings in enumerate(self.spelling):
            for e, spelled in enumerate(spellings):
                if spelled is not None and len(spelled) == 1:
                    index[spelled[0]] = (c, e)
        return index

    def letter_cost(self, letter: Letter) -> int:
        """Moves needed for one letter (``None`` spelling: not reachable by the class's moves)."""
        spelled = self.spelling[letter[0]][letter[1] % self.orders[letter[0]]]
        return 10 ** 6 if spelled is None else len(spelled)

    def cost(self, word: Iterable[Letter]) -> int:
        """Moves needed for a word."""
        return sum(self.letter_cost(x) for x in word)

    def names(self, word: Iterable[Letter]) -> list[str]:
        """The move names spelling a word."""
        out: list[str] = []
        for c, e in word:
            out.extend(self.spelling[c][e % self.orders[c]])
        return out

    def letters(self, names: Iterable[str]) -> list[Letter]:
        """A word of move names as letters."""
        index = self.named_letters()
        return [index[n] for n in names]

    def inverse(self, word: Sequence[Letter]) -> list[Letter]:
        """The inverse word."""
        return [(c, self.orders[c] - e) for c, e in reversed(word)]

    def perm(self, word: Iterable[Letter]) -> np.ndarray:
        """The gather array of a word (the state after it is ``state[perm]``)."""
        out = np.arange(self.degree, dtype=np.int32)
        for c, e in word:
            out = out[self.powers[c][e % self.orders[c]]]
        return out

    def apply(self, state: np.ndarray, word: Iterable[Letter]) -> np.ndarray:
        """The state after a word."""
        for c, e in word:
            state = state[self.powers[c][e % self.orders[c]]]
        return state

    def reduce(self, word: Iterable[Letter]) -> list[Letter]:
        """The word with powers of a class merged wherever only commuting letters lie
        between them, until nothing more merges.

        >>> import numpy as np
        >>> a, b = np.array([1, 0, 2, 3]), np.array([0, 1, 3, 2])
        >>> MoveSet.from_moves({"a": a, "b": b}).reduce([(0, 1), (1, 1), (0, 1)])
        [(1, 1)]
        """
        word = list(word)
        while True:
            out = self._reduce_once(word)
            if len(out) == len(word):
                return out
            word = out

    def _reduce_once(self, word: list[Letter]) -> list[Letter]:
        out: list[Letter] = []
        for c, e in word:
            e %= self.orders[c]
            if e == 0:
                continue
            at = len(out) - 1
            while at >= 0 and out[at][0] != c and self.commute[out[at][0], c]:
                at -= 1
            if at >= 0 and out[at][0] == c:
                merged = (out[at][1] + e) % self.orders[c]
                if merged:
                    out[at] = (c, merged)
                else:
                    del out[at]
            else:
                out.append((c, e))
        return out

    def extend(self, word: Sequence[Letter], *more: Sequence[Letter], margin: int = 32
               ) -> list[Letter]:
        """``word`` followed by ``more``, reduced where they meet: only the end of
        ``word`` is looked at (a longer end while the cancelling reaches its
        start), so that a long word grows at a cost that does not grow with it.

        >>> import numpy as np
        >>> t = np.array([1, 2, 3, 0])
        >>> ms = MoveSet.from_moves({"t": t, "-t": np.argsort(t)})
        >>> ms.extend([(0, 1)] * 3, [(0, 3)], [(0, 3)])
        [(0, 1)]
        """
        added: list[Letter] = [x for w in more for x in w]
        k = margin
        while True:
            head, tail = list(word[:-k]) if k < len(word) else [], list(word[-k:])
            out = self.reduce(tail + added)
            if not head or out[:margin // 4] == tail[:margin // 4]:
                return head + out
            k *= 2

    def join(self, *words: Sequence[Letter]) -> list[Letter]:
        """The reduced concatenation of words."""
        out: list[Letter] = []
        for w in words:
            out.extend(w)
        return self.reduce(out)
