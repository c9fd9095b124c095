"""Reading contest input line by line, with line numbers for error messages.

Line ends may be LF or CRLF; trailing blanks are ignored.

>>> r = LineReader("3 \\r\\n\\r\\nab\\n")
>>> r.count("test cases")
3
>>> r.next_nonblank()
(3, 'ab')
"""
from __future__ import annotations

from permgroup.errors import InputError, counted


class LineReader:
    """A cursor over the lines of an input text.

    >>> r = LineReader("2\\n\\n  x y  \\r\\n")
    >>> r.next_nonblank(), r.remaining_nonblank(), r.next_nonblank()
    ((1, '2'), [(3, '  x y')], None)
    >>> LineReader("two\\n").count("cases")
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: line 1: expected the number of cases, got 'two'
    """

    def __init__(self, text: str):
        self.lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.pos = 0

    def next_nonblank(self) -> tuple[int, str] | None:
        """The next non-blank line as ``(line number, text)``, or ``None`` at the end."""
        while self.pos < len(self.lines):
            self.pos += 1
            if self.lines[self.pos - 1].strip():
                return self.pos, self.lines[self.pos - 1]
        return None

    def remaining_nonblank(self) -> list[tuple[int, str]]:
        """All the non-blank lines left, as ``(line number, text)``."""
        start, self.pos = self.pos, len(self.lines)
        return [(number, line) for number, line in enumerate(self.lines[start:], start + 1)
                if line and not line.isspace()]

    def count(self, what: str) -> int:
        """Read the count line (a non-negative integer)."""
        item = self.next_nonblank()
        if item is None:
            raise InputError("empty input: expected the number of " + what)
        number, text = item
        try:
            value = int(text.strip())
        except ValueError:
            raise InputError(f"line {number}: expected the number of {what}, got {text.strip()!r}"
                             ) from None
        if value < 0:
            raise InputError(f"line {number}: the number of {what} cannot be negative")
        return value


def check_case_count(declared: int, found: int, what: str = "case") -> None:
    """Raise unless the count line agrees with the cases present.

    >>> check_case_count(2, 2)  # they agree: returns None
    >>> check_case_count(1, 2, "dataset")
    Traceback (most recent call last):
        ...
    permgroup.errors.InputError: the count line says 1 dataset but the input holds 2
    """
    if declared != found:
        raise InputError(f"the count line says {counted(declared, what)} but the input holds "
                         f"{found}")


def read_blocks(text: str, lines_per_case: int, what: str = "lines") -> list[list[tuple[int, str]]]:
    """A count line, then that many cases of ``lines_per_case`` non-blank lines each.

    Raises :class:`InputError` for an empty input, a bad count line, an incomplete
    last case or a count that disagrees with the cases present.

    >>> read_blocks("2\\n\\na\\nb\\n\\nc\\nd\\n", 2)
    [[(3, 'a'), (4, 'b')], [(6, 'c'), (7, 'd')]]
    """
    reader = LineReader(text)
    declared = reader.count("cases")
    lines = reader.remaining_nonblank()
    n = lines_per_case
    if len(lines) % n:
        partial = lines[-(len(lines) % n):]
        raise InputError(f"case {len(lines) // n + 1} is incomplete: {len(partial)} of the "
                         f"{n} {what} (from line {partial[0][0]})")
    check_case_count(declared, len(lines) // n)
    return [lines[n * c: n * c + n] for c in range(declared)]
