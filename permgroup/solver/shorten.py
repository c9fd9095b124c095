"""Making a solving word shorter without changing where it ends.

Three passes, each keeping the word's last state (or a state as good):

* :func:`cut_loops`: the states met along the word are colourings, and with
  identical pieces two different stretches of moves often lead to the same
  colouring; a stretch between two equal states is removed.
* :func:`shortcuts`: from each state, every state within one or two moves is
  compared with the states met later; a later state reached sooner replaces
  the stretch between.
* :func:`replace_windows`: each window of the word is looked up (by its
  permutation) in a table of the shortest words of a few letters, and replaced
  by a cheaper equivalent.

And one pass for words long in few cells (:func:`meet_shortcuts`): the states
within a few moves of each state met, from both ends of a stretch, met in the
middle.

>>> import numpy as np
>>> from permgroup.moves import MoveSet
>>> t = np.array([1, 2, 3, 0])
>>> ms = MoveSet.from_moves({"t": t, "-t": np.argsort(t)})
>>> start = np.array([0, 0, 1, 1])
>>> cut_loops(ms, start, [(0, 1), (0, 1), (0, 1), (0, 1), (0, 1)])
[(0, 1)]
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from permgroup.levels import by_moves, levels
from permgroup.moves import Letter, MoveSet


def _states(ms: MoveSet, start: np.ndarray, word: Sequence[Letter]) -> list[bytes]:
    out = [start.tobytes()]
    state = start
    for c, e in word:
        state = state[ms.powers[c][e % ms.orders[c]]]
        out.append(state.tobytes())
    return out


def cut_loops(ms: MoveSet, start: np.ndarray, word: Sequence[Letter]) -> list[Letter]:
    """The word with every stretch between two equal states removed (the last
    time a state is met is where the word goes on from)."""
    start = np.ascontiguousarray(start)
    states = _states(ms, start, word)
    last = {s: i for i, s in enumerate(states)}
    out: list[Letter] = []
    i = 0
    while i < len(word):
        j = last[states[i]]
        if j > i:
            i = j
            continue
        out.append(word[i])
        i += 1
    return ms.reduce(out)


def shortcuts(ms: MoveSet, start: np.ndarray, word: Sequence[Letter], *, depth: int = 2,
              budget: int = 20_000_000) -> list[Letter]:
    """The word with stretches replaced by words of at most ``depth`` letters that
    reach a later state sooner (``depth`` is lowered so that about ``budget``
    position lookups are made)."""
    start = np.ascontiguousarray(start)
    letters = [(c, e) for c in range(len(ms.classes)) for e in range(1, ms.orders[c])
               if ms.letter_cost((c, e)) <= 2]
    words: list[list[Letter]] = [[x] for x in letters]
    if depth >= 2 and len(letters) ** 2 * ms.degree * max(len(word), 1) <= budget:
        words += [[x, y] for x, y in itertools.product(letters, letters)
                  if x[0] != y[0] and not (ms.commute[x[0], y[0]] and x[0] > y[0])]
    if len(words) * ms.degree * max(len(word), 1) > budget:
        return list(word)
    perms = np.array([ms.perm(w) for w in words])
    costs = np.array([ms.cost(w) for w in words])
    word = list(word)
    changed = True
    while changed:
        changed = False
        states = _states(ms, start, word)
        # prefix costs: the cost of word[:i]
        prefix = np.concatenate([[0], np.cumsum([ms.letter_cost(x) for x in word])])
        last = {s: i for i, s in enumerate(states)}
        state = start
        for i in range(len(word)):
            reached = state[perms]
            for r in range(len(words)):
                j = last.get(reached[r].tobytes())
                if j is not None and j > i and prefix[j] - prefix[i] > costs[r]:
                    word = word[:i] + list(words[r]) + word[j:]
                    changed = True
                    break
            if changed:
                break
            c, e = word[i]
            state = state[ms.powers[c][e % ms.orders[c]]]
        word = ms.reduce(word)
    return word


#: the states of :func:`meet_shortcuts`' balls times the cells at most (about
#: 3 s at a load of 5 before their colours were numbered once, 6 times less
#: since; Santa's globe_1/16 rows at radius 2, 14,000,000; at radius 3,
#: 490,000,000 and 40 s for 2 moves more on row 348; globe_3/33's at radius 2,
#: 1,200,000,000, 9-15 s at a load of 6-12 for 10 moves of 840 on row 388)
MEET_ENTRIES = 40_000_000


def meet_shortcuts(ms: MoveSet, start: np.ndarray, word: Sequence[Letter], radius: int = 6,
                   *, entries: int = MEET_ENTRIES) -> list[Letter]:
    """The word with stretches replaced by cheaper words through a state
    within ``radius`` one-move letters of both ends (a stretch of up to
    ``2 radius`` moves found from each end's side); the replacements chosen
    together, the cheapest word over all of them (a shortest path over the
    word's points).  ``radius`` is lowered until the states within it of
    every point, times the cells, stay within ``entries``.  The state reached
    is the word's.  Where pieces look alike, two stretches often reach one
    colouring by different ways: on Santa's globe_1/16 row 348 173 -> 169 moves
    (radius 3), globe_6/8 row 378 241 -> 237 (radius 2).

    >>> t = np.array([1, 2, 3, 4, 5, 0]); s = np.array([1, 0, 2, 3, 4, 5])
    >>> ms = MoveSet.from_moves({"t": t, "-t": np.argsort(t), "s": s})
    >>> start = np.array([0, 0, 1, 1, 2, 2])
    >>> word = ms.letters(["t", "t", "s", "t", "t"])    # s swaps two cells of one colour
    >>> shorter = meet_shortcuts(ms, start, word)
    >>> ms.names(shorter), bool((ms.apply(start, shorter) == ms.apply(start, word)).all())
    (['-t', '-t'], True)
    """
    word = list(word)
    letters = [(c, e) for c in range(len(ms.classes)) for e in sorted({1, ms.orders[c] - 1})
               if ms.letter_cost((c, e)) == 1]
    if not word or not letters:
        return word
    k = len(letters)
    # the states within r of a point: about k (k - 1)^(r - 1)
    while radius > 0 and (len(word) + 1) * k * (k - 1) ** (radius - 1) * ms.degree > entries:
        radius -= 1
    if radius == 0:
        return word
    powers = np.stack([np.asarray(ms.powers[c][e]) for c, e in letters])
    states = [np.ascontiguousarray(start)]
    for x in word:
        states.append(ms.apply(states[-1], [x]))
    # Zobrist keys: random words per (cell, colour), summed (no weak sums of
    # colours times weights: near states would meet by accident)
    values = np.unique(np.stack(states))
    rng = np.random.default_rng(0)
    keys = rng.integers(0, 2 ** 63, size=(ms.degree, len(values)), dtype=np.uint64).ravel()
    # the balls grown on each cell's colour number in the narrowest type, and
    # hashed by its place in the flat keys (looking the colours up level by
    # level took most of the time: 100 points of globe_3/33 at radius 2,
    # 11.3 s -> 1.8 s at a load of 12)
    coded = [np.searchsorted(values, state).astype(np.uint8 if len(values) <= 256 else np.int32)
             for state in states]
    offsets = (np.arange(ms.degree) * len(values)).astype(
        np.int32 if keys.size < 2 ** 31 else np.int64)

    def hashed(level: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return keys.take(level + offsets).sum(axis=1, dtype=np.uint64)

    balls = [_ball(state, powers, radius, hashed) for state in coded]
    # each state of the balls one number; the cheapest way to it from a point
    # before (cost so far plus its distance), to go on to a later point
    every, ids = np.unique(np.concatenate([b[0] for b in balls]), return_inverse=True)
    near = np.full(len(every), np.inf)
    near_from = np.zeros((len(every), 2), dtype=np.int64)
    best = np.zeros(len(word) + 1)
    how: list[tuple[int, int, int] | None] = [None] * (len(word) + 1)
    at = 0
    for t, (_, dist, _, _) in enumerate(balls):
        mine = ids[at:at + len(dist)]
        at += len(dist)
        if t:
            best[t] = best[t - 1] + ms.letter_cost(word[t - 1])
            through = near[mine] + dist
            m = int(np.argmin(through))
            if through[m] < best[t]:
                best[t] = through[m]
                i, ki = near_from[mine[m]]
                how[t] = (int(i), int(ki), m)
        here = best[t] + dist
        better = here < near[mine]
        near[mine[better]] = here[better]
        near_from[mine[better], 0] = t
        near_from[mine[better], 1] = np.flatnonzero(better)
    out: list[list[Letter]] = []
    t = len(word)
    while t > 0:
        if how[t] is None:
            out.append([word[t - 1]])
            t -= 1
            continue
        i, ki, kt = how[t]
        there = _path(balls[i], ki, letters)
        back = _path(balls[t], kt, letters)
        out.append(there + ms.inverse(back))
        t = i
    shorter = ms.reduce([x for part in reversed(out) for x in part])
    if ms.cost(shorter) >= ms.cost(word) or \
            not np.array_equal(ms.apply(start, shorter), states[-1]):
        return word  # a key met by accident: the word as it was
    return shorter


def _ball(state: np.ndarray, powers: np.ndarray, radius: int, hashed
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The states within ``radius`` letters (rows of gather arrays ``powers``)
    of ``state``, each once (told apart by ``hashed``), by the one levels
    generator: their keys, distances, the index of the state each came from
    (-1 for ``state``) and the letter that took it there."""
    first = state[None, :]
    grow = by_moves(lambda rows, m: rows[:, powers[m]], len(powers))
    keys, dist = [hashed(first)], [np.zeros(1, dtype=np.int64)]
    parent, letter = [np.full(1, -1, dtype=np.int64)], [np.full(1, -1, dtype=np.int64)]
    base, size = 0, 1
    for level in itertools.islice(levels(first, grow, key=hashed), radius):
        keys.append(level.keys)
        dist.append(np.full(len(level.keys), level.depth, dtype=np.int64))
        parent.append(base + level.parent)
        letter.append(level.move)
        base, size = base + size, len(level.keys)
    return (np.concatenate(keys), np.concatenate(dist), np.concatenate(parent),
            np.concatenate(letter))


def _path(ball: tuple[np.ndarray, ...], k: int, letters: Sequence[Letter]) -> list[Letter]:
    """The letters from a ball's centre to its state ``k``."""
    _, _, parent, letter = ball
    out = []
    while parent[k] >= 0:
        out.append(letters[letter[k]])
        k = parent[k]
    return out[::-1]


def perm_hash(perms: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each permutation (rows of ``perms``), for table keys.

    >>> perm_hash(np.array([[0, 1, 2], [0, 2, 1]])).shape
    (2,)
    """
    perms = np.atleast_2d(perms).astype(np.uint64)
    weights = (np.arange(1, perms.shape[1] + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
               ) | np.uint64(1)
    with np.errstate(over="ignore"):
        mixed = perms * weights
        mixed ^= mixed >> np.uint64(29)
        return mixed.sum(1, dtype=np.uint64)


def short_words(ms: MoveSet, length: int, budget: int = 30_000_000) -> dict[int, list[Letter]]:
    """The cheapest word of up to ``length`` letters for each permutation they
    make, keyed by :func:`perm_hash`; a level is added only while the words'
    permutations cost at most ``budget`` position lookups to make.

    >>> from permgroup.moves import MoveSet
    >>> ms = MoveSet.from_moves({"T": np.array([1, 2, 3, 0]), "S": np.array([1, 0, 2, 3])})
    >>> [ms.names(w) for w in short_words(ms, 2).values()]  # T² is one letter of two turns
    [[], ['T'], ['T', 'T'], ['S'], ['T', 'S'], ['T', 'T', 'S'], ['S', 'T'], ['S', 'T', 'T']]
    """
    letters = [(c, e) for c in range(len(ms.classes)) for e in range(1, ms.orders[c])
               if ms.letter_cost((c, e)) <= 2]
    identity = np.arange(ms.degree, dtype=np.int32)
    table: dict[int, list[Letter]] = {int(perm_hash(identity)[0]): []}
    frontier: list[tuple[np.ndarray, list[Letter]]] = [(identity, [])]
    if not letters:
        return table
    classes = np.array([c for c, _ in letters], dtype=np.int64)
    powers = np.stack([np.asarray(ms.powers[c][e]) for c, e in letters])
    spent = 0
    for _ in range(length):
        spent += len(frontier) * len(letters) * ms.degree
        if spent > budget:
            break
        perms = np.stack([p for p, _ in frontier])
        last = np.array([w[-1][0] if w else -1 for _, w in frontier], dtype=np.int64)
        # a letter never follows its own class, nor a commuting class of a higher number
        follows = last[:, None] >= 0
        before = np.maximum(last, 0)[:, None]
        skip = follows & ((before == classes[None, :])
                          | (ms.commute[before, classes[None, :]] & (before > classes[None, :])))
        # every permutation of the level made and hashed at once, in the order the
        # words are met (frontier first, then letter: the first of equal cost stays)
        rows, ks = np.nonzero(~skip)
        grown = []
        for at in range(0, len(rows), SHORT_WORDS_BLOCK):
            r, k = rows[at:at + SHORT_WORDS_BLOCK], ks[at:at + SHORT_WORDS_BLOCK]
            made = np.take_along_axis(perms[r], powers[k], axis=1)
            keys = perm_hash(made)
            for j in range(len(r)):
                cand = frontier[r[j]][1] + [letters[k[j]]]
                key = int(keys[j])
                old = table.get(key)
                if old is None or ms.cost(old) > ms.cost(cand):
                    table[key] = cand
                    grown.append((made[j], cand))
        frontier = grown
        if not frontier:
            break
    return table


#: candidate permutations of :func:`short_words` made and hashed in one block
SHORT_WORDS_BLOCK = 4096


def replace_windows(ms: MoveSet, word: Sequence[Letter], table: dict[int, list[Letter]],
                    max_window: int = 8) -> list[Letter]:
    """Windows of up to ``max_window`` letters replaced by cheaper words of the
    same permutation from ``table``, left to right, until none is found."""
    word = list(word)
    i = 0
    while i < len(word):
        perm = np.arange(ms.degree, dtype=np.int32)
        cost = 0
        for j in range(i, min(len(word), i + max_window)):
            c, e = word[j]
            perm = perm[ms.powers[c][e % ms.orders[c]]]
            cost += ms.letter_cost(word[j])
            found = table.get(int(perm_hash(perm)[0]))
            if found is not None and ms.cost(found) < cost \
                    and np.array_equal(ms.perm(found), perm):
                word = ms.reduce(word[:i] + found + word[j + 1:])
                # the windows reaching into the change are looked at again (not
                # the whole word: that made a long word's pass quadratic)
                i = max(0, i - max_window)
                break
        else:
            i += 1
    return word


def shorten(ms: MoveSet, start: np.ndarray, word: Sequence[Letter], *,
            table: dict[int, list[Letter]] | None = None) -> list[Letter]:
    """All the passes, while one helps."""
    word = ms.reduce(word)
    while True:
        before = ms.cost(word)
        word = cut_loops(ms, start, word)
        word = shortcuts(ms, start, word)
        if table is not None:
            word = replace_windows(ms, word, table)
        if ms.cost(word) >= before:
            return word
