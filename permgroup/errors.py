"""Errors the engine and the puzzle readers raise for bad input.

>>> issubclass(UnreachableError, InputError)
True
"""


class InputError(ValueError):
    """Malformed input: the message names what is wrong and where.

    ``answered`` holds the output for the part of the input read before the
    fault, for formats that answer the complete cases first; the command line
    prints it to stdout before the message.
    """

    answered: str = ""


class UnreachableError(InputError):
    """A well-formed state that no sequence of moves reaches (the invariant is named)."""
