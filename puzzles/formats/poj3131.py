"""POJ 3131 "Cubic Eight-Puzzle": the fewest rolls to a pattern of top colours, up to N (default 30).

Datasets until a ``0 0`` line.

A dataset is the initially empty square ``x y`` (x the column, y the row,
both 1..3), then three lines of the goal's top colours: line ``y`` lists
columns 1..3 of row ``y`` as ``W``, ``R``, ``B`` or ``E`` (the empty square,
exactly once), separated by blanks.  The output is one line per dataset: the
least number of rolls if at most 30 (``max_depth``), else ``-1``.

Reading stops at the first fault: the datasets before it are still answered
(:attr:`permgroup.errors.InputError.answered`), then the error is raised.

>>> datasets, fault = read_datasets("2 1\\nR B W\\nR W W\\nE W W\\n0 0\\n")
>>> datasets, fault
([Dataset(empty=1, pattern='RBWRWWEWW', line=1)], None)
>>> print(read_datasets("2 1\\nR B W\\n")[1])  # doctest: +ELLIPSIS
dataset 1 is incomplete: the input ends after 1 of its 3 pattern lines (...)
"""
from __future__ import annotations

from dataclasses import dataclass

from permgroup.errors import InputError
from puzzles import cubic_eight
from puzzles.formats.lines import LineReader

COLOURS = "WRB"


@dataclass(frozen=True)
class Dataset:
    """The empty cell at the start, the goal's tops row by row, and the line
    number of the dataset's first line.

    >>> d = Dataset(empty=cubic_eight.cell_of(2, 1), pattern="RBWRWWEWW", line=1)
    >>> d.empty, cubic_eight.xy_of(d.empty), d.pattern[6]
    (1, (2, 1), 'E')
    """

    empty: int
    pattern: str
    line: int


def read_datasets(text: str) -> tuple[list[Dataset], InputError | None]:
    """The complete, valid datasets before the first fault, and the fault
    (``None`` if the input is well formed).

    >>> datasets, fault = read_datasets("1 1\\nE W W\\nW W W\\nW W W\\n4 1\\n0 0\\n")
    >>> datasets
    [Dataset(empty=0, pattern='EWWWWWWWW', line=1)]
    >>> print(fault)  # doctest: +ELLIPSIS
    dataset 2, line 5: the empty square (4, 1) is off the board (...)
    """
    reader = LineReader(text)
    datasets: list[Dataset] = []
    try:
        while True:
            dataset = _read_dataset(reader, len(datasets) + 1)
            if dataset is None:
                return datasets, None
            datasets.append(dataset)
    except InputError as fault:
        return datasets, fault


def _read_dataset(reader: LineReader, k: int) -> Dataset | None:
    item = reader.next_nonblank()
    if item is None:
        after = f" (after dataset {k - 1})" if k > 1 else ""
        raise InputError(f"the input ends without the '0 0' line that closes it{after}")
    number, line = item
    fields = line.split()
    if len(fields) != 2 or not all(f.lstrip("+-").isdigit() for f in fields):
        raise InputError(f"dataset {k}, line {number}: expected the empty square as two "
                         f"numbers 'x y', got {line.strip()!r}")
    x, y = int(fields[0]), int(fields[1])
    if (x, y) == (0, 0):
        return None
    if not (1 <= x <= 3 and 1 <= y <= 3):
        raise InputError(f"dataset {k}, line {number}: the empty square ({x}, {y}) is off the "
                         "board (x and y must be 1, 2 or 3; '0 0' ends the input)")
    rows = []
    for r in range(3):
        item = reader.next_nonblank()
        if item is None:
            raise InputError(f"dataset {k} is incomplete: the input ends after {r} of its 3 "
                             "pattern lines (no '0 0' line closes the input)")
        rows.append(_read_row(item, k))
    pattern = "".join(rows)
    empties = pattern.count(cubic_eight.EMPTY)
    if empties != 1:
        raise InputError(f"dataset {k} (from line {number}): the pattern has {empties} empty "
                         "squares (E), expected exactly one")
    return Dataset(cubic_eight.cell_of(x, y), pattern, number)


def _read_row(item: tuple[int, str], k: int) -> str:
    number, line = item
    cells = line.split()
    if len(cells) != 3:
        raise InputError(f"dataset {k}, line {number}: a pattern line needs 3 cells "
                         f"separated by blanks, got {len(cells)} ({line.strip()!r})")
    for i, cell in enumerate(cells):
        if len(cell) != 1 or cell not in COLOURS + cubic_eight.EMPTY:
            raise InputError(f"dataset {k}, line {number}, cell {i + 1}: {cell!r} is not one "
                             "of W, R, B, E")
    return "".join(cells)


def solve_text(text: str, max_depth: int = cubic_eight.DEFAULT_MAX_DEPTH) -> str:
    """Answer every dataset (see the module docstring).

    Answers need the 15-million-state tables, too big to build in an example;
    the cheap cases:

    >>> solve_text("0 0\\n")  # no datasets
    ''
    >>> solve_text("3 3\\nW W W\\n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: dataset 1 is incomplete: the input ends after 1 of its 3 ...
    """
    if max_depth < 0:
        raise InputError(f"the maximum depth must be at least 0, got {max_depth}")
    datasets, fault = read_datasets(text)
    answers = []
    for dataset in datasets:
        answers.append(cubic_eight.distance(dataset.empty, dataset.pattern, max_depth))
    output = "".join(f"{d}\n" for d in answers)
    if fault is not None:
        fault.answered = output
        raise fault
    return output


def write_datasets(datasets: list[tuple[int, str]]) -> str:
    """An input holding these (empty cell, pattern) datasets, closed by ``0 0``.

    >>> text = write_datasets([(1, "RBWRWWEWW")])
    >>> print(text, end="")
    2 1
    R B W
    R W W
    E W W
    0 0
    >>> [(d.empty, d.pattern) for d in read_datasets(text)[0]]
    [(1, 'RBWRWWEWW')]
    """
    lines = []
    for empty, pattern in datasets:
        x, y = cubic_eight.xy_of(empty)
        lines.append(f"{x} {y}")
        lines.extend(" ".join(pattern[3 * r: 3 * r + 3]) for r in range(3))
    lines.append("0 0")
    return "\n".join(lines) + "\n"
