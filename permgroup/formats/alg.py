"""Alg notation, as cubing.js and twsearch write move sequences.

An alg is a sequence of units separated by blanks; a unit is a move name, a
group ``( ... )``, a conjugate ``[A: B]`` (= A B A⁻¹) or a commutator ``[A, B]``
(= A B A⁻¹ B⁻¹), each followed by an optional amount: ``2`` (twice), ``'``
(inverse), ``2'``.  Units nest.  :func:`expand` flattens an alg into letters
``(name, exponent)``, inverses pushed down to the moves, so that any puzzle
model can evaluate it.

>>> expand("[R, U]")
[('R', 1), ('U', 1), ('R', -1), ('U', -1)]
>>> expand("(R U)2'")
[('U', -1), ('R', -1), ('U', -1), ('R', -1)]
>>> expand("[x': R2 U]")
[('x', -1), ('R', 2), ('U', 1), ('x', 1)]
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from permgroup.errors import InputError

Letter = tuple[str, int]
#: which names are moves: a collection of them (an unknown move's message then
#: lists them), a test, or ``None`` for any name
Names = Callable[[str], bool] | Collection[str] | None

_AMOUNT = re.compile(r"(\d*)(['’′]?)")


@dataclass(frozen=True)
class Node:
    """One unit of an alg: ``kind`` is ``"move"``, ``"group"``, ``"conjugate"``
    or ``"commutator"``; ``amount`` its exponent."""

    kind: str
    amount: int
    name: str = ""
    parts: tuple = ()


class _Reader:
    def __init__(self, text: str, is_name: Names, what: str):
        self.names = None if is_name is None or callable(is_name) else list(is_name)
        if self.names is not None:
            is_name = set(self.names).__contains__
        self.text, self.pos, self.is_name, self.what = text, 0, is_name, what

    def fail(self, message: str, at: int | None = None, after: str = "") -> InputError:
        at = self.pos if at is None else at
        return InputError(f"{self.what}: {message} at character {at + 1} of {self.text!r}"
                          f"{after}")

    def peek(self) -> str:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def sequence(self, closers: str) -> tuple[Node, ...]:
        units = []
        while True:
            c = self.peek()
            if c == "" or c in closers:
                return tuple(units)
            units.append(self.unit())

    def unit(self) -> Node:
        start = self.pos
        c = self.peek()
        if c == "(":
            self.pos += 1
            inner = self.sequence(")")
            self.expect(")", start)
            return Node("group", self.amount(), parts=inner)
        if c == "[":
            self.pos += 1
            first = self.sequence(":,]")
            separator = self.peek()
            if separator not in (":", ","):
                raise self.fail("expected ':' or ',' inside [ ]")
            self.pos += 1
            second = self.sequence("]")
            self.expect("]", start)
            kind = "conjugate" if separator == ":" else "commutator"
            return Node(kind, self.amount(), parts=(first, second))
        match = re.compile(r"[A-Za-z0-9_\-]+").match(self.text, self.pos)
        if not match:
            raise self.fail(f"unexpected {c!r}")
        token = match.group(0)
        self.pos = match.end()
        name, amount = self.split(token, start)
        if self.text[self.pos:self.pos + 1] in ("'", "’", "′"):
            self.pos += 1
            amount = -amount
        return Node("move", amount, name=name)

    def split(self, token: str, start: int) -> tuple[str, int]:
        """A token is a known name, or a name followed by a power (``R2``, ``U3``)."""
        if self.is_name is not None and self.is_name(token):
            return token, 1
        stripped = token.rstrip("0123456789")
        if stripped and stripped != token:
            if self.is_name is None or self.is_name(stripped):
                return stripped, int(token[len(stripped):])
        if self.is_name is not None:
            raise self.fail(f"unknown move {token!r}", start, self.known())
        return token, 1

    def known(self) -> str:
        """The valid moves, for a message about an unknown one."""
        if not self.names:
            return ""
        return (f"; moves are {', '.join(self.names)} (' inverts, a number is a power: "
                f"{self.names[0]}2)")

    def expect(self, closer: str, start: int) -> None:
        if self.peek() != closer:
            raise self.fail(f"unclosed {'(' if closer == ')' else '['}", start)
        self.pos += 1

    def amount(self) -> int:
        match = _AMOUNT.match(self.text, self.pos)
        self.pos = match.end()
        digits, prime = match.groups()
        k = int(digits) if digits else 1
        return -k if prime else k


def parse_alg(text: str, is_name: Names = None, what: str = "alg") -> tuple[Node, ...]:
    """The units of ``text``.  With ``is_name``, every move must be a name it
    accepts, or one of them when it is a collection of names (a token that is
    not is split into a name and a power, ``R2``).

    >>> [(u.kind, u.name, u.amount) for u in parse_alg("R2' (U R)")]
    [('move', 'R', -2), ('group', '', 1)]
    >>> parse_alg("R Q2", ["R", "U"])
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: alg: unknown move 'Q2' at character 3 of 'R Q2'; moves are R, U (' inverts, a number is a power: R2)
    >>> parse_alg("[R: U", what="derived move 'A'")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: derived move 'A': unclosed [ at character 1 of '[R: U'
    """
    reader = _Reader(text, is_name, what)
    units = reader.sequence("")
    if reader.peek():
        raise reader.fail(f"unexpected {reader.peek()!r}")
    return units


def _letters(units: tuple[Node, ...]) -> list[Letter]:
    out: list[Letter] = []
    for u in units:
        if u.kind == "move":
            once = [(u.name, 1)]
        elif u.kind == "group":
            once = _letters(u.parts)
        else:
            a, b = _letters(u.parts[0]), _letters(u.parts[1])
            once = a + b + _inverse(a) + (_inverse(b) if u.kind == "commutator" else [])
        if u.kind == "move":
            out.append((u.name, u.amount))
        elif u.amount >= 0:
            out += once * u.amount
        else:
            out += _inverse(once) * -u.amount
    return out


def _inverse(letters: list[Letter]) -> list[Letter]:
    return [(name, -k) for name, k in reversed(letters)]


def expand(text: str, is_name: Names = None, what: str = "alg") -> list[Letter]:
    """The letters ``(name, exponent)`` of an alg, in order (see the module docstring)."""
    return _letters(parse_alg(text, is_name, what))


def names_used(text: str) -> set[str]:
    """The move names an alg refers to.

    >>> sorted(names_used("[R, U2] (F D')3"))
    ['D', 'F', 'R', 'U']
    """
    return {name for name, _ in expand(text)}
