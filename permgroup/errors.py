"""Errors the engine and the puzzle readers raise for bad input.

>>> issubclass(UnreachableError, InputError)
True
"""


class InputError(ValueError):
    """Malformed input: the message names what is wrong and where.

    ``answered`` holds the output for the part of the input read before the
    fault, for formats that answer the complete cases first; the command line
    prints it to stdout before the message.

    >>> error = InputError("line 3: expected 4 letters")
    >>> error.answered = "1\\n"  # the answer to the case before line 3
    >>> isinstance(error, ValueError), str(error), error.answered
    (True, 'line 3: expected 4 letters', '1\\n')
    """

    answered: str = ""


class UnreachableError(InputError):
    """A well-formed state that no sequence of moves reaches (the invariant is named).

    Turning a four-bead necklace never separates its two ``a`` beads:

    >>> from permgroup.search.meet import search_distance
    >>> from permgroup.spaces.colouring import ColouringSpace
    >>> necklace = ColouringSpace("aabb", {"turn": (1, 2, 3, 0)})
    >>> try:
    ...     search_distance(necklace, "abab", "aabb")
    ... except InputError as exc:  # caught as bad input, like any other
    ...     print(type(exc).__name__, exc)
    UnreachableError no sequence of moves joins the two colourings
    """


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during work that had answered part of its input: ``answered``
    holds the output of the part answered (as :class:`InputError`'s does), which
    the command line writes before its one ``permgroup: interrupted`` line.

    >>> issubclass(Interrupted, KeyboardInterrupt)  # still a Ctrl-C to any caller
    True
    """

    def __init__(self, message: str = "", answered: str = ""):
        super().__init__(message)
        self.answered = answered


class Stopped(Exception):
    """A search gave up within its limits: ``reason`` says which (the time
    limit, the memory budget) and ``ruled_out`` what it proved before: no word
    of at most that many moves is a solution.

    >>> str(Stopped("the time limit", 9)), str(Stopped("cancelled"))
    ('the time limit (no word of 9 moves or fewer)', 'cancelled')

    :class:`permgroup.budget.Budget` is what work checks to know when to stop.
    """

    def __init__(self, reason: str, ruled_out: int = 0):
        super().__init__(reason, ruled_out)
        self.reason, self.ruled_out = reason, ruled_out

    def __str__(self) -> str:
        if not self.ruled_out:
            return self.reason
        return f"{self.reason} (no word of {self.ruled_out} moves or fewer)"


def require_string(value: object, what: str, expected: str) -> None:
    """Raise a :class:`TypeError` naming the expected type unless ``value`` is a str.

    Public functions that take a facelet string or a board call this first, so
    that ``distance(None, None)`` says what it wanted instead of failing deep
    inside with ``object of type 'NoneType' has no len()``.

    >>> require_string("UUUU", "cube", "a facelet string")  # fine: returns None
    >>> require_string(None, "first cube", "a facelet string of 24 letters")
    Traceback (most recent call last):
    ...
    TypeError: first cube: expected a facelet string of 24 letters (str), got NoneType
    """
    if not isinstance(value, str):
        raise TypeError(f"{what}: expected {expected} (str), got {type(value).__name__}")
