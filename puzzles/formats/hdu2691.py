"""HDU 2691: quarter turns between two 2x2x2 nets drawn one above the other.

The count, then per case twelve lines: the first cube's net (two lines of U,
two lines of L F R B, two lines of D, letters separated by blanks), then the
second cube's.  Output: the least number of quarter turns between the two
cubes, ignoring orientation.  Any six colour letters; the scheme is read off the
first cube, and the second must share it.

>>> solve_text("1\\n" + "Y Y\\nY Y\\nO O B B R R G G\\nO O B B R R G G\\nW W\\nW W\\n" * 2)
'0\\n'
"""
from __future__ import annotations

from permgroup.errors import InputError
from puzzles import minicube
from puzzles.formats.lines import read_blocks

#: letters per net line, and which faces they belong to
NET_LINES = (("U",), ("U",), ("L", "F", "R", "B"), ("L", "F", "R", "B"), ("D",), ("D",))


def _cube(lines: list[tuple[int, str]], case: int, which: str) -> str:
    faces: dict[str, str] = {f: "" for f in "URFDLB"}
    for (number, text), names in zip(lines, NET_LINES):
        letters = text.split()
        if len(letters) != 2 * len(names) or any(len(x) != 1 for x in letters):
            raise InputError(f"case {case}, line {number}: expected {2 * len(names)} "
                             f"single letters separated by blanks, got {text.strip()!r}")
        for k, face in enumerate(names):
            faces[face] += "".join(letters[2 * k: 2 * k + 2])
    return "".join(faces[f] for f in "URFDLB")


def read_cases(text: str) -> list[tuple[str, str]]:
    """The cases as pairs of URFDLB facelet strings.

    >>> net = "Y Y\\nY Y\\nO O B B R R G G\\nO O B B R R G G\\nW W\\nW W\\n"
    >>> read_cases("1\\n" + net + net)
    [('YYYYRRRRBBBBWWWWOOOOGGGG', 'YYYYRRRRBBBBWWWWOOOOGGGG')]
    """
    return [
        (_cube(block[:6], c + 1, "first"), _cube(block[6:], c + 1, "second"))
        for c, block in enumerate(read_blocks(text, 12, "net lines"))
    ]


def solve_text(text: str) -> str:
    """Answer every case.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> s = "YYYYRRRRBBBBWWWWOOOOGGGG"
    >>> solve_text(write_cases([(s, minicube.apply_moves(s, "R U")), (s, s)]))
    '2\\n0\\n'
    """
    out = []
    for number, (a, b) in enumerate(read_cases(text), 1):
        try:
            out.append(minicube.distance(a, b))
        except InputError as exc:
            raise InputError(f"case {number}: {exc}") from None
    return "".join(f"{d}\n" for d in out)


def write_cases(pairs: list[tuple[str, str]]) -> str:
    """An input holding these pairs of URFDLB facelet strings.

    >>> s = "YYYYRRRRBBBBWWWWOOOOGGGG"
    >>> read_cases(write_cases([(s, s)])) == [(s, s)]
    True
    """
    out = [f"{len(pairs)}"]
    for pair in pairs:
        for state in pair:
            faces = {f: state[4 * i: 4 * i + 4] for i, f in enumerate("URFDLB")}
            for row, names in enumerate(NET_LINES):
                half = row % 2
                out.append(" ".join(c for f in names for c in faces[f][2 * half: 2 * half + 2]))
    return "\n".join(out) + "\n"
