"""Errors the engine and the puzzle readers raise for bad input.

>>> issubclass(UnreachableError, InputError)
True
"""
import math
import numbers


def did_you_mean(word: str, choices) -> str:
    """``" (did you mean 'x'?)"`` for the choice a mistyped ``word`` most
    likely meant (the same but for case, else a close spelling), else ``""``.

    >>> did_you_mean("Skewb", ["minicube", "skewb"]), did_you_mean("sekwb", ["skewb"])
    (" (did you mean 'skewb'?)", " (did you mean 'skewb'?)")
    >>> did_you_mean("gigaminx", ["minicube", "skewb"])
    ''
    """
    import difflib

    lower = {str(c).lower(): str(c) for c in choices}
    key = word.lower()
    if key not in lower:
        close = difflib.get_close_matches(key, list(lower), n=1, cutoff=0.8)
        key = close[0] if close else ""
    best = lower.get(key)
    return f" (did you mean {best!r}?)" if best and best != word else ""


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun, plural unless ``n`` is 1, for messages.

    >>> counted(1, "line"), counted(3, "line"), counted(0, "case"), counted(2, "ox", "oxen")
    ('1 line', '3 lines', '0 cases', '2 oxen')
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


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


class TooLong(InputError):
    """A word whose expansion would pass the most letters kept
    (:data:`permgroup.formats.alg.MAX_LETTERS`): its element can still be
    computed, powers taken by cycles (:func:`permgroup.formats.alg.evaluate`).

    >>> issubclass(TooLong, InputError)
    True
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
        return f"{self.reason} (no word of {counted(self.ruled_out, 'move')} or fewer)"


class InputTypeError(InputError, TypeError):
    """An argument of the wrong type given to a public function: a
    :class:`TypeError` as Python's convention has it, and an
    :class:`InputError` as the project's rule has it (one line naming what was
    expected; exit status 2 on the command line).

    >>> issubclass(InputTypeError, TypeError), issubclass(InputTypeError, InputError)
    (True, True)
    """


def require_string(value: object, what: str, expected: str) -> None:
    """Raise an :class:`InputTypeError` naming the expected type unless ``value`` is a str.

    Public functions that take a facelet string or a board call this first, so
    that ``distance(None, None)`` says what it wanted instead of failing deep
    inside with ``object of type 'NoneType' has no len()``.

    >>> require_string("UUUU", "cube", "a facelet string")  # fine: returns None
    >>> require_string(None, "first cube", "a facelet string of 24 letters")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputTypeError: first cube: expected a facelet string of 24 letters (str), got NoneType
    """
    if not isinstance(value, str):
        raise InputTypeError(f"{what}: expected {expected} (str), got {type(value).__name__}")


def require_whole(value: object, what: str, least: int = 0) -> int:
    """``value`` as an ``int`` of at least ``least``: :class:`InputTypeError`
    for anything but a whole number, :class:`InputError` for one too small.

    >>> require_whole(3, "per_effect", 1)
    3
    >>> require_whole(0, "per_effect", 1)
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: per_effect must be at least 1, got 0
    >>> require_whole("3", "per_effect")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputTypeError: per_effect: expected a whole number, got str
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InputTypeError(f"{what}: expected a whole number, got {type(value).__name__}")
    if value < least:
        raise InputError(f"{what} must be at least {least}, got {value}")
    return int(value)


def require_positive(value: object, what: str) -> float:
    """``value`` as a finite ``float`` above 0 (a width, a size in pixels):
    :class:`InputTypeError` for anything but a number, :class:`InputError` for
    0, a negative number, ``nan`` or ``inf``.

    >>> require_positive(900, "width")
    900.0
    >>> require_positive(float("nan"), "width")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: width must be a finite number above 0, got nan
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputTypeError(f"{what}: expected a number, got {type(value).__name__}")
    if not (math.isfinite(value) and value > 0):
        raise InputError(f"{what} must be a finite number above 0, got {value}")
    return float(value)
