"""``cube3-facelets``: any 3x3x3 cube (54 URFDLB facelets) a line in, face turns solving it out.

One 3x3x3 cube a line, as 54 facelets in URFDLB order
(each face read row by row, any six colour letters); out, one solution a line:
face turns (``U``, ``U2``, ``U'``) separated by spaces, an empty line for a
solved cube.  Blank input lines are skipped.

Each cube is solved by the two-phase search (:func:`puzzles.cube3.solve`):
``time_limit`` seconds per cube (1 by default), stopping early at a solution of
at most ``max_length`` turns.  A bad line stops the run: the cubes before it
are answered, then one message names the line and what is wrong.

>>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
>>> text = cube3.SOLVED + "\\n" + cube3.apply_moves(cube3.SOLVED, "R U2") + "\\n"
>>> print(solve_text(text, max_length=2), end="")
<BLANKLINE>
U2 R'
"""
from __future__ import annotations


from permgroup.errors import InputError
from puzzles import cube3


def solve_text(text: str, max_length: int | None = None, time_limit: float = 1.0) -> str:
    """Answer every line of a ``cube3-facelets`` input.

    >>> import os, tempfile; os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> solve_text(cube3.SOLVED + "\\n" + cube3.SOLVED[1:] + "\\n")
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: line 2: expected 54 stickers, got 53
    """
    if max_length is not None and max_length < 0:
        raise InputError(f"--max-length must be at least 0, got {max_length}")
    if not time_limit > 0:
        raise InputError(f"--time-limit must be more than 0 seconds, got {time_limit}")
    out = []
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        state = line.strip()
        if not state:
            continue
        try:
            cube3.element(state, f"line {number}")
        except InputError as fault:
            fault.answered = "".join(out)
            raise
        out.append(" ".join(cube3.solve(state, max_length, time_limit)) + "\n")
    return "".join(out)
