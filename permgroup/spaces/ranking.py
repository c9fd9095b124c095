"""The ranking kernel: permutations (Lehmer codes), placements (partial
permutations), multisets in lexicographic order (many at once on packed words:
:class:`permgroup.spaces.colouring.MultisetRanking`), orientations and
parities, numbered ``0..N-1`` one at a time in plain Python or many at once in
numpy, for every space of the engine.

numpy is imported by the functions that use it: ranking one arrangement (to
read one entry of a cached table) never loads it.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from math import factorial
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


def lehmer_rank(perm: Sequence[int]) -> int:
    """The Lehmer rank of one permutation of ``0..n-1`` (lexicographic order).

    >>> [lehmer_rank(p) for p in [(0, 1, 2), (0, 2, 1), (2, 1, 0)]]
    [0, 1, 5]
    """
    n = len(perm)
    rank = 0
    for i in range(n - 1):
        rank = rank * (n - i) + sum(p < perm[i] for p in perm[i + 1:])
    return rank


def lehmer_ranks(perms: np.ndarray) -> np.ndarray:
    """Lehmer ranks of the rows of ``perms`` (permutations of ``0..n-1``).

    >>> import numpy as np
    >>> lehmer_ranks(np.array([[0, 1, 2], [2, 1, 0]])).tolist()
    [0, 5]
    """
    return placement_ranks(perms, perms.shape[1])


def lehmer_unranks(ranks: np.ndarray, n: int) -> np.ndarray:
    """Inverse of :func:`lehmer_ranks`: rows of the permutations of ``0..n-1``.

    >>> import numpy as np
    >>> lehmer_unranks(np.array([0, 5]), 3).tolist()
    [[0, 1, 2], [2, 1, 0]]
    """
    return placement_unranks(ranks, n, n)


def placement_ranks(slots: np.ndarray, n: int) -> np.ndarray:
    """Ranks of rows of ``k`` distinct slots among ``0..n-1``: digit ``i`` the
    number of unused slots below ``slots[i]``, radices ``n, n-1, ...``.

    >>> import numpy as np
    >>> placement_ranks(np.array([[0, 1], [1, 0], [2, 1]]), 3).tolist()
    [0, 2, 5]
    """
    import numpy as np

    rows, k = slots.shape
    columns = np.ascontiguousarray(slots.T).astype(np.int64)
    ranks = np.zeros(rows, dtype=np.int64)
    for i in range(k):
        digit = columns[i].copy()
        for j in range(i):
            digit -= columns[j] < columns[i]
        ranks = ranks * (n - i) + digit
    return ranks


def placement_unranks(ranks: np.ndarray, n: int, k: int) -> np.ndarray:
    """Inverse of :func:`placement_ranks`: rows of ``k`` distinct slots.

    >>> import numpy as np
    >>> placement_unranks(np.array([0, 2, 5]), 3, 2).tolist()
    [[0, 1], [1, 0], [2, 1]]
    """
    import numpy as np

    ranks = np.asarray(ranks, dtype=np.int64)
    digits = np.stack(np.unravel_index(ranks, [n - i for i in range(k)]), axis=1)
    out = np.empty_like(digits)
    available = np.ones((len(digits), n), dtype=bool)
    rows = np.arange(len(digits))
    for i in range(k):
        # the digit-th slot still free
        chosen = np.argmax(np.cumsum(available, axis=1) > digits[:, i:i + 1], axis=1)
        out[:, i] = chosen
        available[rows, chosen] = False
    return out


def sorted_positions(keys: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Where each of ``wanted`` stands in the sorted array ``keys``, ``-1`` where
    it is absent: the rank of a state among listed ones.

    >>> import numpy as np
    >>> sorted_positions(np.array([2, 5, 9]), np.array([5, 6, 9, 10])).tolist()
    [1, -1, 2, -1]
    """
    import numpy as np
    if not len(keys):
        return np.full(len(wanted), -1, dtype=np.int64)
    found = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return np.where(keys[found] == wanted, found, -1)


def multinomial(counts: Sequence[int]) -> int:
    """Arrangements of a multiset with these counts of each label.

    >>> multinomial([4, 4, 4, 4])
    63063000
    """
    result = factorial(sum(counts))
    for c in counts:
        result //= factorial(c)
    return result


def palette_and_counts(solved: Sequence[Hashable]) -> tuple[dict, list[int]]:
    """Colour numbers (by first appearance) and how often each colour occurs.

    >>> palette_and_counts("aabcb")
    ({'a': 0, 'b': 1, 'c': 2}, [2, 2, 1])
    """
    index = {c: i for i, c in enumerate(dict.fromkeys(solved))}
    counts = [0] * len(index)
    for c in solved:
        counts[index[c]] += 1
    return index, counts


def multiset_rank(labels: Sequence[int], counts: Sequence[int]) -> int:
    """The place of one arrangement (labels ``0..k-1``) in lexicographic order
    among all arrangements with these label counts.

    >>> [multiset_rank(c, [2, 2]) for c in ([0, 0, 1, 1], [0, 1, 0, 1], [1, 1, 0, 0])]
    [0, 1, 5]
    """
    left = list(counts)
    remaining = multinomial(left)
    rank = 0
    for c in labels:
        total = sum(left)
        # arrangements of the rest starting with label x: remaining * left[x] / total
        rank += sum(remaining * left[x] for x in range(c)) // total
        remaining = remaining * left[c] // total
        left[c] -= 1
    return rank


def multiset_arrangements(labels: Sequence[int]) -> np.ndarray:
    """Every arrangement of the multiset ``labels``, a row each, in
    lexicographic order (row ``r`` has :func:`multiset_rank` ``r``).

    >>> multiset_arrangements([1, 0, 1]).tolist()
    [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    """
    import numpy as np

    values = np.array(sorted(set(labels)), dtype=np.int64)
    rows = np.zeros((1, 0), dtype=np.int64)
    left = np.array([[list(labels).count(v) for v in values.tolist()]], dtype=np.int64)
    for _ in range(len(labels)):
        # each row's children in label order, rows in order: lexicographic again
        row, label = np.nonzero(left)
        rows = np.concatenate([rows[row], values[label][:, None]], axis=1)
        left = left[row]
        left[np.arange(len(row)), label] -= 1
    return rows


def digits_rank(digits: Sequence[int], base: int) -> int:
    """The number whose digits in ``base`` are ``digits``, the first the least
    significant (one row of :func:`orientation_ranks`).

    >>> digits_rank([1, 2, 0], 3)
    7
    """
    rank = 0
    for d in reversed(digits):
        rank = rank * base + d
    return rank


def orientation_ranks(twists: np.ndarray, k: int, dependent: bool) -> np.ndarray:
    """Ranks of rows of orientations ``0..k-1``, digit ``j`` weighing ``k**j``;
    with ``dependent`` the last digit (fixed by the others' sum) is dropped.

    >>> import numpy as np
    >>> orientation_ranks(np.array([[1, 2, 0], [2, 0, 1]]), 3, True).tolist()
    [7, 2]
    """
    import numpy as np

    digits = twists[:, :-1] if dependent else twists
    weights = k ** np.arange(digits.shape[1], dtype=np.int64)
    return digits.astype(np.int64) @ weights


def orientation_unranks(ranks: np.ndarray, k: int, n: int, dependent: bool) -> np.ndarray:
    """Inverse of :func:`orientation_ranks`: rows of ``n`` orientations (with
    ``dependent``, the last makes the sum 0 mod ``k``).

    >>> import numpy as np
    >>> orientation_unranks(np.array([7, 2]), 3, 3, True).tolist()
    [[1, 2, 0], [2, 0, 1]]
    """
    import numpy as np

    ranks = np.asarray(ranks, dtype=np.int64)
    out = np.empty((len(ranks), n), dtype=np.int64)
    for j in range(n - 1 if dependent else n):
        out[:, j] = (ranks // k**j) % k
    if dependent:
        out[:, -1] = (-out[:, :-1].sum(axis=1)) % k
    return out


def parities(perms: np.ndarray) -> np.ndarray:
    """Parity (0 even, 1 odd) of each row of ``perms``.

    >>> import numpy as np
    >>> parities(np.array([[0, 1, 2], [1, 0, 2], [1, 2, 0]])).tolist()
    [0, 1, 0]
    """
    import numpy as np

    columns = np.ascontiguousarray(perms.T)
    inversions = np.zeros(len(perms), dtype=np.int8)
    for i in range(perms.shape[1] - 1):
        for j in range(i + 1, perms.shape[1]):
            inversions ^= columns[j] < columns[i]
    return inversions
