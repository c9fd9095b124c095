"""The product of mixed-radix digits, each with its own move table: the space
most spaces are made of (elements of a puzzle, projections onto some pieces,
the outer digits of a definition's space)."""
from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from math import prod

import numpy as np

from permgroup.spaces.space import DENSE_STEP, Factor, rank_dtype


class FactorSpace:
    """The product of mixed-radix factors, the last varying fastest; a move
    acts on each digit through that factor's table.

    A three-cell ring times a two-sided flip: move 0 turns the ring, move 1 flips.

    >>> s = FactorSpace([Factor("ring", 3, np.array([[1, 2, 0], [0, 1, 2]])),
    ...                  Factor("flip", 2, np.array([[0, 1], [1, 0]]))])
    >>> s.size, s.strides, [d.tolist() for d in s.digits(np.arange(6))]
    (6, [2, 1], [[0, 0, 1, 1, 2, 2], [0, 1, 0, 1, 0, 1]])
    >>> s.step(np.array([0, 1]), 0).tolist(), s.step(np.array([0]), 1).tolist()
    ([2, 3], [1])
    >>> s.back_step(np.array([2]), 0).tolist(), s.dense_step(np.arange(6) == 0, 0).tolist()
    ([0], [False, False, True, False, False, False])
    """

    capabilities = frozenset({DENSE_STEP})

    def __init__(self, factors: Sequence[Factor]):
        self.factors = list(factors)
        self.n_moves = self.factors[0].table.shape[0]
        self.sizes = [f.size for f in self.factors]
        self.size = prod(self.sizes)
        self.strides = [prod(self.sizes[i + 1:]) for i in range(len(self.sizes))]
        self.dtype = rank_dtype(self.size)
        self.tables = [f.table.astype(self.dtype) for f in self.factors]

    def digits(self, ranks: np.ndarray) -> list[np.ndarray]:
        out = []
        rest = ranks
        for stride in self.strides[:-1]:
            digit, rest = np.divmod(rest, self.dtype(stride))
            out.append(digit)
        out.append(rest)
        return out

    def _apply(self, tables: list[np.ndarray], ranks: np.ndarray, m: int) -> np.ndarray:
        # 32-bit arithmetic where the space allows: integer division is 3x faster
        ranks = np.asarray(ranks).astype(self.dtype, copy=False)
        digits = self.digits(ranks)
        result = tables[-1][m][digits[-1]]
        for table, digit, stride in zip(tables[:-1], digits[:-1], self.strides[:-1]):
            result += table[m][digit] * self.dtype(stride)
        return result

    def step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        return self._apply(self.tables, ranks, m)

    @cached_property
    def inverse_tables(self) -> list[np.ndarray]:
        return [_inverse_rows(t) for t in self.tables]

    def back_step(self, ranks: np.ndarray, m: int) -> np.ndarray:
        return self._apply(self.inverse_tables, ranks, m)

    def dense_step(self, mask: np.ndarray, m: int) -> np.ndarray:
        """The set move ``m`` reaches from the boolean set ``mask`` of all
        ranks: one gather along each factor's axis."""
        image = mask.reshape(self.sizes)
        for axis, table in enumerate(self.inverse_tables):
            image = np.take(image, table[m], axis=axis)
        return image.reshape(-1)


def _inverse_rows(table: np.ndarray) -> np.ndarray:
    inverse = np.empty_like(table)
    columns = np.arange(table.shape[1], dtype=table.dtype)
    for m in range(table.shape[0]):
        inverse[m][table[m]] = columns
    return inverse
