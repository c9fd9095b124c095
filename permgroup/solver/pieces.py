"""Pieces, their orbits and their parities, found from the moves alone.

A *piece* is a set of positions that every move carries onto another such set:
the stickers of one cubie (found by :func:`permgroup.pieces.find_pieces`).
The moves permute the pieces, and the orbits of that action are the *piece
orbits* (the corners, the edges, one ring of centres of a big cube).  A move's *parity* on a piece orbit is the sign of the
permutation it induces there: the solver's 3-cycles keep every parity, so the
parities a position needs are fixed first, with single moves.

>>> import numpy as np
>>> from permgroup.moves import MoveSet
>>> ms = MoveSet.from_moves({"t": np.array([2, 3, 0, 1, 4, 5]), "u": np.array([0, 1, 4, 5, 2, 3])})
>>> pieces = Pieces.of(ms)   # three pieces of two stickers, each move swaps two of them
>>> pieces.blocks, pieces.orbits
([(0, 1), (2, 3), (4, 5)], [[0, 1, 2]])
>>> pieces.parity_matrix().tolist()
[[1], [1]]
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from permgroup.moves import MoveSet


def position_orbits(ms: MoveSet) -> list[np.ndarray]:
    """The orbits of the moves on the positions (fixed positions left out), as
    sorted arrays.

    >>> from permgroup.moves import MoveSet
    >>> position_orbits(MoveSet.from_moves({"t": np.array([1, 0, 2, 4, 3])}))
    [array([0, 1]), array([3, 4])]
    """
    n = ms.degree
    parent = np.arange(n)

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for pw in ms.powers:
        g = pw[1]
        for i in np.flatnonzero(g != np.arange(n)):
            a, b = root(int(i)), root(int(g[i]))
            if a != b:
                parent[a] = b
    groups: dict[int, list[int]] = defaultdict(list)
    moved = np.zeros(n, dtype=bool)
    for pw in ms.powers:
        moved |= pw[1] != np.arange(n)
    for i in np.flatnonzero(moved):
        groups[root(int(i))].append(int(i))
    return sorted((np.array(sorted(v)) for v in groups.values()), key=lambda a: int(a[0]))


def orbit_of_position(ms: MoveSet) -> np.ndarray:
    """Each position's orbit, numbered as :func:`position_orbits` lists them
    (-1 for a position no move moves).

    >>> from permgroup.moves import MoveSet
    >>> orbit_of_position(MoveSet.from_moves({"t": np.array([1, 0, 2, 4, 3])})).tolist()
    [0, 0, -1, 1, 1]
    """
    orbit_of = np.full(ms.degree, -1, dtype=np.int64)
    for k, orbit in enumerate(position_orbits(ms)):
        orbit_of[orbit] = k
    return orbit_of


@dataclass
class Pieces:
    """Blocks of positions (pieces), the block each position is in, and the orbits
    of the moves on the blocks (lists of block indices)."""

    blocks: list[tuple[int, ...]]
    block_of: np.ndarray
    orbits: list[list[int]]
    # block_moves[c][b]: the block that the class's base move carries block b onto
    block_moves: np.ndarray

    @classmethod
    def of(cls, ms: MoveSet) -> "Pieces":
        """The pieces of ``ms`` (:func:`permgroup.pieces.find_pieces`, the
        project's one piece finder), as arrays."""
        from permgroup.pieces import find_pieces

        n = ms.degree
        # the finder takes sticker maps (where each sticker goes)
        scatter = [np.array(ms.scatter(c)) for c in range(len(ms.classes))]
        found = find_pieces(n, [tuple(s.tolist()) for s in scatter])
        blocks = [tuple(sorted(piece)) for orbit in found for piece in orbit]
        order = sorted(range(len(blocks)), key=lambda b: blocks[b])
        blocks = [blocks[b] for b in order]
        block_of = np.full(n, -1, dtype=np.int64)
        for b, members in enumerate(blocks):
            block_of[list(members)] = b
        orbits = sorted(([int(block_of[piece[0]]) for piece in orbit] for orbit in found),
                        key=lambda o: min(o))
        orbits = [sorted(o) for o in orbits]
        first = np.array([m[0] for m in blocks], dtype=np.int64)
        block_moves = np.array([block_of[s[first]] for s in scatter], dtype=np.int64) \
            if scatter else np.zeros((0, len(blocks)), dtype=np.int64)
        return cls(blocks, block_of, orbits, block_moves)

    def parity_matrix(self) -> np.ndarray:
        """``[c, k]``: 1 when class ``c``'s base move is an odd permutation of the
        pieces of orbit ``k`` (made once: a big cube's takes seconds)."""
        if getattr(self, "_parity", None) is None:
            self._parity = self._parity_matrix()
        return self._parity.copy()

    def _parity_matrix(self) -> np.ndarray:
        out = np.zeros((len(self.block_moves), len(self.orbits)), dtype=np.uint8)
        local = np.zeros(len(self.blocks), dtype=np.int64)
        for k, orbit in enumerate(self.orbits):
            local[orbit] = np.arange(len(orbit))
            perms = local[self.block_moves[:, orbit]]        # classes x pieces
            if len(orbit) <= 256:
                # the parity of the inversions, every class at once
                inversions = (perms[:, :, None] > perms[:, None, :]) & np.triu(
                    np.ones((len(orbit), len(orbit)), dtype=bool), 1)
                out[:, k] = inversions.sum((1, 2)) % 2
            else:
                out[:, k] = [permutation_parity(p) for p in perms.tolist()]
        return out

    def piece_keys(self, colours: np.ndarray, position_orbit: np.ndarray) -> list[list[tuple]]:
        """For each orbit, what each of its slots shows, as a key that does not depend
        on how the piece is turned: per orbit of positions the piece spans, the
        sorted colours it shows there (a corner's three stickers share an orbit and
        may turn; a big cube's edge wing has one sticker in each of two orbits and
        never turns)."""
        out = []
        for orbit in self.orbits:
            keys = []
            for b in orbit:
                members = list(self.blocks[b])
                groups: dict[int, list[int]] = {}
                for p in members:
                    groups.setdefault(int(position_orbit[p]), []).append(int(colours[p]))
                keys.append(tuple(tuple(sorted(groups[o])) for o in sorted(groups)))
            out.append(keys)
        return out

    def piece_parities(self, state: np.ndarray, goal: np.ndarray, position_orbit: np.ndarray
                       ) -> list[int | None]:
        """For each orbit, the parity of the permutation taking the pieces of
        ``state`` home, or ``None`` when two of its pieces look alike (then either
        parity can be reached by swapping them) or the pieces do not match."""
        out: list[int | None] = []
        for now, home_keys in zip(self.piece_keys(state, position_orbit),
                                  self.piece_keys(goal, position_orbit)):
            home = {key: i for i, key in enumerate(home_keys)}
            if len(home) < len(home_keys) or sorted(now) != sorted(home_keys):
                out.append(None)
            else:
                out.append(permutation_parity([home[key] for key in now]))
        return out


def permutation_parity(perm: list[int]) -> int:
    """0 for an even permutation (of ``0..n-1`` in array form), 1 for an odd one.

    >>> permutation_parity([1, 2, 0]), permutation_parity([1, 0, 2])
    (0, 1)
    """
    seen = [False] * len(perm)
    odd = 0
    for i in range(len(perm)):
        if seen[i]:
            continue
        j, length = i, 0
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            length += 1
        odd ^= (length - 1) & 1
    return odd
