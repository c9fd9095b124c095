"""Permutations as plain tuples, and the one convention every module follows.

A permutation of ``n`` points is stored in *array form*, exactly as sympy's
``Permutation.array_form``: ``p[i]`` is the image of ``i``.  Composition reads
left to right, as in sympy: ``compose(p, q)`` is "``p`` first, then ``q``",
so ``compose(p, q)[i] == q[p[i]]``, matching ``(P*Q)(i) == Q(P(i))``.

Puzzle conventions built on this:

* a *move* or *element* maps sticker positions: the sticker at position ``i``
  goes to position ``p[i]``;
* a *state* (colouring) lists the colour at each position;
  ``act(state, p)`` is the state after ``p`` is applied, so that
  ``act(act(s, p), q) == act(s, compose(p, q))``.

Starting from the solved colouring, the element ``p`` produces
``act(solved, p)``; going from the state of ``p`` to the state of ``q``
takes the element ``compose(inverse(p), q)``.

Two forms of one move, and which layer holds which:

* *scatter* form, the one above (``p[i]`` is where the sticker at ``i``
  goes): held by this module, :class:`~permgroup.puzzle.Puzzle`, elements,
  the spaces, the tables and the searches of the engine, because it is
  sympy's array form (the algebra, orders and stabilizer chains come from
  sympy) and composes left to right as words read;
* *gather* form ``g = inverse(p)`` (after the move, the sticker at ``i``
  came from ``g[i]``: ``new = old[g]``): held by
  :class:`permgroup.moves.MoveSet`, the generic solver (``permgroup/solver/``)
  and Santa 2023's files, because one numpy index ``states[:, g]`` moves a
  whole batch of states, and it is the form Santa's files are written in.
  A definition's positions (:mod:`permgroup.formats.definition`, KPuzzle's
  convention: ``pieces[i]`` is the piece in slot ``i``) are gather form piece
  by piece, as the files write them; :func:`permgroup.formats.stickers.sticker_permutation`
  turns them into the engine's sticker moves.

The two meet in one place: :func:`permgroup.moves.gather_of` and
:func:`permgroup.moves.scatter_of` (and :meth:`MoveSet.from_puzzle
<permgroup.moves.MoveSet.from_puzzle>`, :meth:`MoveSet.scatter
<permgroup.moves.MoveSet.scatter>`, built on them); nothing else inverts a
move to change its form.  Move names are read and written by one reader,
:mod:`permgroup.formats.alg`.

>>> p = (1, 2, 0)
>>> compose(p, inverse(p))
(0, 1, 2)
>>> act("abc", p)
('c', 'a', 'b')
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TypeVar

Perm = tuple[int, ...]

T = TypeVar("T")


def identity(n: int) -> Perm:
    """The identity on ``n`` points.

    >>> identity(3)
    (0, 1, 2)
    """
    return tuple(range(n))


def compose(p: Sequence[int], q: Sequence[int]) -> Perm:
    """``p`` first, then ``q``.

    >>> compose((1, 0, 2), (0, 2, 1))
    (2, 0, 1)
    """
    return tuple([q[i] for i in p])


def compose_all(perms: Iterable[Sequence[int]], n: int) -> Perm:
    """Compose a sequence of permutations in the order given.

    >>> compose_all([(1, 0, 2), (0, 2, 1)], 3)
    (2, 0, 1)
    """
    result = identity(n)
    for p in perms:
        result = compose(result, p)
    return result


def inverse(p: Sequence[int]) -> Perm:
    """The inverse permutation.

    >>> inverse((1, 2, 0))
    (2, 0, 1)
    """
    inv = [0] * len(p)
    for i, image in enumerate(p):
        inv[image] = i
    return tuple(inv)


def repeated(x: T, e: int, compose: Callable[[T, T], T], one: T) -> T:
    """``x`` composed with itself ``e >= 0`` times by repeated squaring
    (``log2 e`` compositions): the one square-and-multiply loop, for elements
    of any representation (``one`` its identity, ``compose`` its product).

    >>> repeated((1, 2, 0), 10**20, compose, identity(3))  # 10^20 = 1 mod 3
    (1, 2, 0)
    """
    result = one
    while e:
        if e & 1:
            result = compose(result, x)
        e >>= 1
        if e:
            x = compose(x, x)
    return result


def power(p: Sequence[int], k: int) -> Perm:
    """``p`` composed with itself ``k`` times (``k`` may be negative), in O(n)
    for any ``k``: each cycle moves its points ``k`` places along it.

    >>> power((1, 2, 3, 0), 2), power((1, 2, 3, 0), -1)
    ((2, 3, 0, 1), (3, 0, 1, 2))
    >>> power((1, 2, 0, 4, 3), 10 ** 20)   # 10^20 is 1 mod 3 and even: the 3-cycle once, no swap
    (1, 2, 0, 3, 4)
    """
    if k == 1:  # a metric's moves are mostly the generators themselves
        return tuple(p)
    if k == -1:
        return inverse(p)
    result = list(range(len(p)))
    seen = bytearray(len(p))
    for start, image in enumerate(p):
        if seen[start] or image == start:  # most points of a move stay
            continue
        cycle = [start]
        seen[start] = 1
        while image != start:
            seen[image] = 1
            cycle.append(image)
            image = p[image]
        shift = k % len(cycle)
        if shift:
            for point, moved in zip(cycle, cycle[shift:] + cycle[:shift]):
                result[point] = moved
    return tuple(result)


def order(p: Sequence[int]) -> int:
    """The order of ``p`` (least ``k > 0`` with ``p**k`` the identity); a
    tuple's is remembered (a puzzle's moves are asked for theirs again and again).

    >>> order((1, 2, 0, 4, 3))
    6
    """
    return _order_of_tuple(p) if isinstance(p, tuple) else _order(p)


@lru_cache(maxsize=1 << 16)
def _order_of_tuple(p: Perm) -> int:
    return _order(p)


def _order(p: Sequence[int]) -> int:
    from math import lcm

    seen = bytearray(len(p))
    lengths = set()
    for start, image in enumerate(p):
        if seen[start] or image == start:
            continue
        length = 1
        seen[start] = 1
        while image != start:
            seen[image] = 1
            image = p[image]
            length += 1
        lengths.add(length)
    return lcm(*lengths) if lengths else 1


def parity(p: Sequence[int]) -> int:
    """0 for an even permutation, 1 for an odd one.

    >>> parity((1, 0, 2)), parity((1, 2, 0))
    (1, 0)
    """
    seen = bytearray(len(p))
    result = 0
    for start, image in enumerate(p):
        if seen[start] or image == start:
            continue
        seen[start] = 1
        while image != start:  # a cycle of length L is L - 1 transpositions
            seen[image] = 1
            image = p[image]
            result ^= 1
    return result


def act(state: Sequence, p: Sequence[int]) -> tuple:
    """The state after applying ``p``: the item at ``i`` moves to ``p[i]``.

    >>> act("xyz", (1, 2, 0))
    ('z', 'x', 'y')
    """
    out = [None] * len(p)
    for i, image in enumerate(p):
        out[image] = state[i]
    return tuple(out)


def from_cycles(cycles: Iterable[Sequence[int]], n: int) -> Perm:
    """Build a permutation from disjoint cycles ``(a b c)``: a→b→c→a.

    >>> from_cycles([(0, 1, 2)], 4)
    (1, 2, 0, 3)
    """
    p = list(range(n))
    for cycle in cycles:
        for a, b in zip(cycle, tuple(cycle[1:]) + (cycle[0],)):
            p[a] = b
    return tuple(p)


def closure(generators: Iterable[Sequence[int]], n: int, limit: int = 10**6) -> list[Perm]:
    """All elements of the group the generators span, by breadth-first search.

    Meant for small groups (rotations of a cube); raises ``ValueError`` past
    ``limit`` elements.

    >>> len(closure([(1, 2, 3, 0)], 4))
    4
    """
    gens = [tuple(g) for g in generators]
    start = identity(n)
    seen = {start}
    order_found = [start]
    for element in order_found:
        for g in gens:
            nxt = compose(element, g)
            if nxt not in seen:
                if len(seen) >= limit:
                    raise ValueError(f"group has more than {limit} elements")
                seen.add(nxt)
                order_found.append(nxt)
    return order_found
