"""Errors the engine and the puzzle readers raise for bad input.

>>> issubclass(UnreachableError, InputError)
True
"""


class InputError(ValueError):
    """Malformed input: the message names what is wrong and where."""


class UnreachableError(InputError):
    """A well-formed state that no sequence of moves reaches (the invariant is named)."""
