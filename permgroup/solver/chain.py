"""Two-phase solving from the moves alone: a chain ``G ⊃ H ⊃ 1`` chosen for the
puzzle, solved by :class:`~permgroup.search.subgroup_chain.SubgroupChain`.

:func:`chain_word` answers when the colourings tell the group element (every
piece told apart from the others of its orbit, and its stickers from one
another) and the chain's tables fit; otherwise it says ``None`` at once and the
caller goes on another way.  Nothing here knows a puzzle by name:

* **pieces** are :class:`~permgroup.solver.pieces.Pieces` blocks; each one's
  stickers are put in an order the moves keep (a move carries a piece's tuple
  onto another piece's tuple turned cyclically), found by carrying the first
  piece of each orbit along the moves (:func:`piece_orders`);
* **families** are classes of moves commuting with one another (the layers
  turning about one axis of a cube; :func:`families`);
* **the subgroup** ``H``: for a family ``F`` and a part ``S`` of it, the moves
  of ``S`` in full and every other class to the power of its least prime
  divisor (half turns; a class of prime order is left out).  With ``S`` the
  two outer layers of an axis this is Kociemba's ``<U, D, R2, L2, F2, B2>``
  (with the slices squared).  Parts are tried largest first, families in
  turn; a candidate is kept when the first stage's coordinate has exactly
  ``|G : H|`` values (sympy's orders), and among those of the largest part
  the one of least index is taken (:func:`choose_subgroup`);
* **costs**: a power that the moves spell with ``k`` moves is a move of the
  chain costing ``k`` (a half turn is two quarter turns in Santa's metric), so
  the search measures words as they will be counted;
* **directions**: the elements of ``G`` made of one family's classes (the
  whole-puzzle turns of a cube) that carry moves onto moves; one of them for
  each other image of ``H``, so the search also tries the position seen along
  another axis.

Tables come from ``$PERMGROUP_CACHE`` (keyed by the moves' fingerprint) or are
built when they fit in the time left (with progress bars on stderr,
:mod:`permgroup.progress`).  Every word is
applied to the start and compared with the goal before it is returned.

>>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
>>> import numpy as np
>>> a, b = np.array([1, 2, 0, 3, 4]), np.array([0, 1, 3, 4, 2])     # two 3-cycles
>>> moves = {"a": a, "-a": np.argsort(a), "b": b, "-b": np.argsort(b)}
>>> goal = np.arange(5)
>>> start = goal[a][b]
>>> from permgroup.budget import Budget
>>> word = chain_word(moves, start, goal, budget=Budget.of(time_limit=10))
>>> state = start
>>> for name in word:
...     state = state[moves[name]]
>>> state.tolist(), len(word)
([0, 1, 2, 3, 4], 2)
>>> chain_word(moves, np.array([0, 0, 1, 1, 2]), goal, budget=Budget.of(10)) is None  # alike pieces
True
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import factorial, log2

import numpy as np

from permgroup.budget import Budget
from permgroup.perm import closure, compose, inverse
from permgroup.search.subgroup_chain import SubgroupChain, consistent_slots
from permgroup.moves import MoveSet, scatter_of
from permgroup.solver.pieces import Pieces
from permgroup.spaces.element import PieceCoordinate
from permgroup.tables.bfs import BUILD_RATE

#: the pattern databases of a chain may hold at most this many entries (a byte each)
MAX_ENTRIES = 1 << 26
#: a stage whose coset space is larger than this is past what its databases can guide
MAX_STAGE = 1 << 40
#: seconds the search goes on after its first answer, at most, and at most this
#: share of the row's time limit (a whole file with a small limit stays quick).
#: Santa's 3x3x3 rows 30-53 at load 6-7: 619 moves at 2.5 s and 1/60, 593 at 5 s
#: and 1/12, 589 at 10 s and 1/6 (twice the time for 4 moves)
SEARCH_SECONDS = 5.0
SEARCH_SHARE = 1 / 12
#: largest number of positions: sympy's orders and the piece bookkeeping stay quick
MAX_DEGREE = 400
#: ... and of moves: a stage's table costs a lookup per move and entry, and the
#: plan a table of which moves commute (transpositions-200's 19,900 moves: 15 s
#: and 1 GB planning, past a 10 s limit, for no chain; Santa's largest cube has 198)
MAX_MOVES = 2_000


def piece_orders(ms: MoveSet, pieces: Pieces) -> list[list[tuple[int, ...]]]:
    """Each orbit's pieces with their stickers in an order the moves carry along:
    the first piece as it comes, every other one as a move's image of a piece
    already ordered (:meth:`PieceCoordinate.from_moves
    <permgroup.spaces.element.PieceCoordinate.from_moves>` says whether
    every move then turns tuples cyclically).

    Three 2-sticker pieces, each two of them trading places (``y`` turns them over):

    >>> x, y, z = [2, 3, 0, 1, 4, 5], [0, 1, 5, 4, 3, 2], [4, 5, 2, 3, 0, 1]
    >>> ms = MoveSet.from_moves({"x": np.array(x), "y": np.array(y), "z": np.array(z)})
    >>> piece_orders(ms, Pieces.of(ms))
    [[(0, 1), (2, 3), (4, 5)]]
    """
    scatter = [ms.scatter(c) for c in range(len(ms.classes))]
    out = []
    for orbit in pieces.orbits:
        order = {orbit[0]: tuple(pieces.blocks[orbit[0]])}
        todo = [orbit[0]]
        while todo:
            b = todo.pop()
            for s in scatter:
                image = tuple(int(s[x]) for x in order[b])
                target = int(pieces.block_of[image[0]])
                if target not in order:
                    order[target] = image
                    todo.append(target)
        out.append([order[b] for b in orbit])
    return out


def families(ms: MoveSet) -> list[list[int]]:
    """Classes (indices) grouped into families: the parts of the commuting graph
    in which every two classes commute.

    >>> t, u = np.array([1, 0, 2, 3]), np.array([0, 1, 3, 2])
    >>> families(MoveSet.from_moves({"t": t, "u": u, "v": np.array([0, 2, 1, 3])}))
    [[0, 1], [2]]
    """
    k = len(ms.classes)
    part = list(range(k))
    for a in range(k):
        for b in range(a + 1, k):
            if ms.commute[a, b]:
                old, new = part[b], part[a]
                part = [new if p == old else p for p in part]
    groups: dict[int, list[int]] = {}
    for c in range(k):
        groups.setdefault(part[c], []).append(c)
    out = []
    for members in groups.values():
        if all(ms.commute[a, b] for a in members for b in members):
            out.append(members)
        else:  # a part that is not a family: each class alone
            out.extend([c] for c in members)
    return out


def _least_prime(n: int) -> int:
    return next(p for p in range(2, n + 1) if n % p == 0)


def chain_moves(ms: MoveSet) -> dict[str, tuple[int, int]]:
    """The chain's moves as letters ``(class, exponent)`` by name: every move of
    the dictionary, and each class's powers by the least prime divisor of its
    order, named by their spelling in the dictionary's moves (``f0.f0``).

    >>> t = np.array([1, 2, 3, 0])
    >>> chain_moves(MoveSet.from_moves({"t": t, "-t": np.argsort(t)}))
    {'t': (0, 1), 't.t': (0, 2), '-t': (0, 3)}
    """
    out: dict[str, tuple[int, int]] = {}
    for c, order in enumerate(ms.orders):
        p = _least_prime(order)
        for e in range(1, order):
            word = ms.spelling[c][e]
            if len(word) == 1 or (p < order and e % p == 0):
                out[".".join(word)] = (c, e)
    return out


def subgroup_moves(ms: MoveSet, letters: Mapping[str, tuple[int, int]], full: Sequence[int]
                   ) -> list[str]:
    """The chain moves generating ``H``: those of the classes ``full``, and the
    powers by the least prime divisor of every other class (none for a class
    of prime order).

    >>> t, u = np.array([1, 2, 3, 0, 4, 5]), np.array([0, 1, 2, 3, 5, 4])
    >>> ms = MoveSet.from_moves({"t": t, "u": u})
    >>> subgroup_moves(ms, chain_moves(ms), [1])   # u in full, t squared
    ['t.t', 'u']
    """
    out = []
    for name, (c, e) in letters.items():
        p = _least_prime(ms.orders[c])
        if c in full or (p < ms.orders[c] and e % p == 0):
            out.append(name)
    return out


@dataclass
class ChainPlan:
    """A puzzle's chain: what :class:`SubgroupChain` is built from, and the group
    (sympy) that positions are checked against."""

    name: str
    moves: dict[str, tuple[int, ...]]
    spelled: dict[str, list[str]]
    pieces: dict[str, list[tuple[int, ...]]]
    subgroup: list[str]
    costs: dict[str, int]
    symmetries: list[tuple[int, ...]]
    entries: int
    build_seconds: float
    group: object
    chain: object = field(default=None, repr=False)

    def element(self, start: np.ndarray, goal: np.ndarray) -> tuple[int, ...] | None:
        """The group element (the chain's form: where each position's sticker
        goes) whose colouring is ``start`` when ``goal`` is solved; ``None``
        when the colours do not tell it or it is not in the group."""
        degree = len(goal)
        x = np.arange(degree)
        home: dict[tuple, int] = {}
        covered = np.zeros(degree, dtype=bool)
        for kind, orbit in self.pieces.items():  # pieces never leave their orbit
            for piece in orbit:
                covered[list(piece)] = True
                key = (kind, *sorted(goal[list(piece)].tolist()))
                for h in piece:
                    if (key, int(goal[h])) in home:
                        return None  # two pieces or two stickers alike
                    home[key, int(goal[h])] = h
        if (start[~covered] != goal[~covered]).any():
            return None
        for kind, orbit in self.pieces.items():
            for piece in orbit:
                key = (kind, *sorted(start[list(piece)].tolist()))
                for i in piece:
                    h = home.get((key, int(start[i])))
                    if h is None:
                        return None
                    x[i] = h
        if len(np.unique(x)) != degree:
            return None
        element = scatter_of(x)
        from sympy.combinatorics import Permutation

        return element if self.group.contains(Permutation(list(element))) else None


_PLANS: dict[str, ChainPlan | None] = {}


def chain_plan(moves: Mapping[str, np.ndarray], ms: MoveSet | None = None
               ) -> ChainPlan | None:
    """The chain for these moves (``ms``: their :class:`MoveSet`, if made
    already; see the module docstring), found once per process; ``None`` when
    no candidate passes or its tables would not fit."""
    ms = MoveSet.from_moves(moves) if ms is None else ms
    key = ms.fingerprint()
    if key not in _PLANS:
        plan = _plan(ms) if 0 < ms.degree <= MAX_DEGREE else None
        if plan is not None:  # two chains' tables in memory at a time, the newest
            for other in [k for k, p in _PLANS.items() if p is not None][:-1]:
                del _PLANS[other]
        _PLANS[key] = plan
    return _PLANS[key]


def _plan(ms: MoveSet) -> ChainPlan | None:
    pieces = Pieces.of(ms)
    orders = piece_orders(ms, pieces)
    # each stage holds at most MAX_STAGE cosets, so |G| at most its square; the
    # pieces' arrangements and turns bound |G| from above, within a few bits
    room = 2 * MAX_STAGE.bit_length() + 8
    if sum(log2(factorial(len(o))) + len(o) * log2(len(o[0])) for o in orders) > room:
        return None
    letters = chain_moves(ms)
    spelled = {name: ms.names([letter]) for name, letter in letters.items()}
    scatter = {name: ms.scatter(c, e) for name, (c, e) in letters.items()}
    try:
        for k, orbit in enumerate(orders):
            PieceCoordinate.from_moves(f"orbit{k}", orbit, scatter)
    except ValueError:  # a move turns a piece other than cyclically
        return None
    # (imported past the checks above: sympy takes a second to load, on the first
    # line of every puzzle too large for a chain)
    from sympy.combinatorics import Permutation, PermutationGroup

    costs = {name: len(word) for name, word in spelled.items()}
    whole = PermutationGroup([Permutation(list(p)) for p in scatter.values()])
    best = None
    for fam in families(ms):
        for size in range(len(fam), 0, -1):
            for part in combinations(fam, size):
                sub = subgroup_moves(ms, letters, part)
                if not sub or len(sub) == len(scatter):
                    continue
                # pieces in an order the subgroup keeps, where it keeps one
                kept = {f"orbit{k}": list(consistent_slots(o, {m: scatter[m] for m in sub}) or o)
                        for k, o in enumerate(orders)}
                try:
                    probe = SubgroupChain("probe", scatter, kept, [sub], costs=costs,
                                          tables=False, cache=False)
                except ValueError:
                    continue
                sizes = [stage.size for stage in probe.stages]
                entries = sum(probe.table_entries())
                work = 0
                for n, stage in zip(probe.table_entries(), probe.stages):
                    bfs = probe.bfs_moves(stage)
                    unit = (probe.costs[stage.moves[bfs]] == 1).all()
                    work += n * len(bfs) * (1 if unit else 3)
                if max(sizes) > MAX_STAGE or entries > MAX_ENTRIES:
                    continue
                if best is not None and (size < best[0] or sizes[0] >= best[1]):
                    continue
                gens = [Permutation(list(scatter[m])) for m in sub]
                if sizes[0] != whole.order() // PermutationGroup(gens).order():
                    continue
                best = (size, sizes[0], sub, kept, entries, work)
            if best is not None and best[0] == size:
                break
    if best is None:
        return None
    _, _, sub, kept, entries, work = best
    return ChainPlan(f"chain-{ms.fingerprint()}", scatter, spelled, kept, sub, costs,
                     directions(ms, scatter, costs, sub), entries, work / BUILD_RATE, whole)


def directions(ms: MoveSet, scatter: Mapping[str, tuple[int, ...]], costs: Mapping[str, int],
               sub: Sequence[str]) -> list[tuple[int, ...]]:
    """Elements made of a whole family of classes (each to the same power) that
    carry the moves onto moves of the same cost, and the group they generate;
    one for each other image of the subgroup's moves."""
    found = []
    for fam in families(ms):
        if len(fam) < 2:
            continue
        r = np.arange(ms.degree)
        for c in fam:
            r = r[ms.powers[c][1]]
        found.append(scatter_of(r))
    if not found:
        return []
    index = {m: n for n, m in scatter.items()}
    out = []
    images = {frozenset(scatter[m] for m in sub)}
    group = closure(found, ms.degree) if len(found) <= 6 else []
    for r in group[:200]:
        if all(index.get(compose(compose(inverse(r), m), r)) is not None and
               costs[index[compose(compose(inverse(r), m), r)]] == costs[name]
               for name, m in scatter.items()):
            image = frozenset(compose(compose(r, scatter[m]), inverse(r)) for m in sub)
            if image not in images:
                images.add(image)
                out.append(r)
    return out


class _Watched:
    """The progress of a chain's builds: a bar for each table, the budget
    checked after each level (:class:`~permgroup.errors.Stopped` once it has
    run out: a build writes its file only when complete)."""

    def __init__(self, budget: Budget):
        self.budget, self.bars = budget, {}

    def __call__(self, stage: int, what: str, depth: int, count: int) -> None:
        from permgroup.progress import Bar

        if (stage, what) not in self.bars:
            self.bars[stage, what] = Bar(f"chain stage {stage}: {what}").__enter__()
        self.bars[stage, what](depth, count)
        self.budget.check()

    def close(self) -> None:
        for bar in self.bars.values():
            bar.__exit__(None, None, None)


def _chain(plan: ChainPlan, budget: Budget):
    """The plan's :class:`SubgroupChain`, its tables read from the cache, or
    built when that fits in the budget's time; ``None`` otherwise."""
    if plan.chain is None:
        args = (plan.name, plan.moves, plan.pieces, [plan.subgroup])
        options = dict(key={"moves": plan.name}, symmetries=plan.symmetries, costs=plan.costs)
        try:
            plan.chain = SubgroupChain(*args, build=False, **options)
        except LookupError:
            if plan.build_seconds > budget.left():
                return None
            watched = _Watched(budget)
            try:
                plan.chain = SubgroupChain(*args, progress=watched, **options)
            finally:
                watched.close()
    return plan.chain


def chain_word(moves: Mapping[str, np.ndarray], start: np.ndarray, goal: np.ndarray, *,
               budget: Budget, ms: MoveSet | None = None,
               improve: float | None = None) -> list[str] | None:
    """A word (move names) taking the colouring ``start`` to ``goal`` through the
    puzzle's chain (see the module docstring), checked; ``None`` when the chain
    does not apply, its tables do not fit in the time, or no answer comes
    within the ``budget``; :class:`~permgroup.errors.Stopped` when the budget
    runs out while its tables are built.  (``ms``, the moves'
    :class:`MoveSet`, is not needed: the chain names the moves by their order.)
    ``improve``: the most seconds spent improving on the first answer (by
    default at most :data:`SEARCH_SECONDS` and :data:`SEARCH_SHARE` of the
    budget: a caller that keeps the word for several uses may give more).
    Either way at most a quarter of the time left."""
    given = budget.left()
    start, goal = np.asarray(start), np.asarray(goal)
    if not 0 < len(start) <= MAX_DEGREE or len(moves) > MAX_MOVES:
        return None
    # the moves named by their order (c0, c1, ...): puzzles whose moves are the
    # same but named otherwise (the 3x3x3 and the corners, middle edges and
    # centres of every odd cube) share one chain and its tables
    names = list(moves)
    canonical = {f"c{i}": np.asarray(moves[name]) for i, name in enumerate(names)}
    plan = chain_plan(canonical)
    if plan is None:
        return None
    element = plan.element(start, goal)
    if element is None:
        return None
    chain = _chain(plan, budget)
    if chain is None:
        return None
    # half of what is left at most for a first answer, and a short while to
    # improve on it: the caller's other ways keep the rest
    left = budget.left() / 2
    try:
        most = min(SEARCH_SECONDS, SEARCH_SHARE * given) if improve is None else improve
        improving = budget.share(1.0, at_most=min(most, left / 2))
        found = chain.solve(element, budget=improving, first_answer=budget.share(0.5))
    except RuntimeError:  # the chain's own check: its first stage never ends
        return None
    if found is None:
        return None
    word = [names[int(name[1:])] for m in found for name in plan.spelled[m]]
    state = start
    for name in word:
        state = state[moves[name]]
    if (state != goal).any():
        raise AssertionError("the chain's word does not solve the position")
    return word
