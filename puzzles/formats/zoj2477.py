"""ZOJ 2477 "Magic Cube": optimal 3x3x3 quarter-turn solutions up to N turns (default 5).

The count, then per case 9 lines drawing the net
(face 4 = up on lines 1-3; faces 0 1 2 3 = left front right back side by side
on lines 4-6; face 5 = down on lines 7-9), one character per sticker, blanks
ignored.  Output per case: the least number of quarter turns, then one
``face direction`` line per turn (``1`` clockwise as seen from outside that
face, ``-1`` counter-clockwise); ``0`` for a solved cube; ``-1`` when more than
``max_depth`` (5 in the contest) turns are needed.

>>> print(solve_text("1\\n" + format_case(cube3.apply_moves(cube3.SOLVED, "F'"))), end="")
1
1 1
"""
from __future__ import annotations


import numpy as np

from permgroup.errors import InputError, Stopped, counted
from puzzles import cube3
from puzzles.formats.lines import LineReader, check_case_count

#: ZOJ face numbers, as URFDLB letters
FACE_NUMBER = {face: number for number, face in enumerate("LFRBUD")}
#: stickers per line of a case
LINE_LENGTHS = [3, 3, 3, 12, 12, 12, 3, 3, 3]


def _facelet_from_text() -> np.ndarray:
    """Where each URFDLB facelet sits among a case's 54 stickers in reading order."""
    order = [(face, row, col) for row in range(3) for face in "U" for col in range(3)]
    order += [(face, row, col) for row in range(3) for face in "LFRB" for col in range(3)]
    order += [(face, row, col) for row in range(3) for face in "D" for col in range(3)]
    position = {key: i for i, key in enumerate(order)}
    return np.array([position[face, i // 3, i % 3] for face in "URFDLB" for i in range(9)])


FACELET_FROM_TEXT = _facelet_from_text()
CONTEST_DEPTH = 5


def read_cases(text: str) -> tuple[np.ndarray, list[str]]:
    """The cases as rows of 54 character codes in URFDLB facelet order, and a
    description of each (case number, lines) for messages.

    >>> codes, whats = read_cases("1\\n" + format_case(cube3.SOLVED))
    >>> codes.shape, whats, "".join(map(chr, codes[0])) == cube3.SOLVED
    ((1, 54), ['case 1 (lines 3-11)'], True)
    """
    reader = LineReader(text)
    declared = reader.count("test cases")
    lines = reader.remaining_nonblank()
    if len(lines) % 9:
        case = len(lines) // 9 + 1
        raise InputError(f"case {case} is incomplete: {len(lines) % 9} of 9 lines "
                         f"(from line {lines[-(len(lines) % 9)][0]})")
    check_case_count(declared, len(lines) // 9)
    rows = ["".join(line.split()) for _, line in lines]
    expected = LINE_LENGTHS * declared
    for i, (row, length) in enumerate(zip(rows, expected)):
        if len(row) != length:
            raise InputError(f"case {i // 9 + 1}, line {lines[i][0]}: expected {length} "
                             f"stickers, got {len(row)}")
    text_order = np.frombuffer("".join(rows).encode("utf-32-le"), dtype=np.uint32)
    codes = text_order.reshape(declared, 54)[:, FACELET_FROM_TEXT]
    whats = [f"case {c + 1} (lines {lines[9 * c][0]}-{lines[9 * c + 8][0]})"
             for c in range(declared)]
    return codes, whats


def format_case(state: str) -> str:
    """A URFDLB facelet string drawn as one ZOJ 2477 case (with its blank line).

    >>> print(format_case(cube3.SOLVED).splitlines()[4])
    L L L F F F R R R B B B
    """
    rows = {f: [state[9 * i + 3 * r: 9 * i + 3 * r + 3] for r in range(3)]
            for i, f in enumerate("URFDLB")}
    out = [""] + ["      " + " ".join(row) for row in rows["U"]]
    for r in range(3):
        out.append(" ".join(" ".join(rows[f][r]) for f in "LFRB"))
    out += ["      " + " ".join(row) for row in rows["D"]]
    return "\n".join(out) + "\n"


def move_line(name: str) -> str:
    """``"F'"`` → ``"1 -1"``.

    >>> move_line("F'"), move_line("U")
    ('1 -1', '4 1')
    """
    return f"{FACE_NUMBER[name[0]]} {-1 if name.endswith(chr(39)) else 1}"


def solve_text(text: str, max_depth: int = CONTEST_DEPTH,
               time_limit: float = cube3.TIME_LIMIT) -> str:
    """Answer every case of a ZOJ 2477 input, each within ``time_limit``
    seconds: a case that needs more stops the run with one message naming it
    (the cases before it answered), never a wrong ``-1``.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> turned = [cube3.apply_moves(cube3.SOLVED, w) for w in ("R U", "R U F")]
    >>> print(solve_text("2\\n" + "".join(map(format_case, turned)), max_depth=2), end="")
    2
    4 -1
    2 -1
    -1
    """
    if max_depth < 0:
        raise InputError(f"--max-depth must be at least 0, got {max_depth}")
    if not time_limit > 0:
        raise InputError(f"--time-limit must be more than 0 seconds, got {time_limit}")
    codes, whats = read_cases(text)
    if not len(whats):
        return ""
    states = cube3.search_space("qtm").of_slot_forms(cube3.slot_forms(codes, whats))
    try:
        words = cube3.solve_digits(states, max_depth, "qtm", time_limit=time_limit)
    except Stopped as exc:
        case, later = len(exc.answered) + 1, len(whats) - len(exc.answered) - 1
        error = InputError(f"case {case}: no answer within {exc.reason} (every sequence of up "
                           f"to {exc.ruled_out} quarter turns ruled out); raise --time-limit "
                           f"or lower --max-depth" + (f"; {counted(later, 'later case')} not tried"
                                                      if later else ""))
        error.answered = _answers(exc.answered)
        raise error from None
    return _answers(words)


def _answers(words: list) -> str:
    return "".join("-1\n" if word is None else
                   f"{len(word)}\n" + "".join(move_line(m) + "\n" for m in word)
                   for word in words)
