"""The one reader and writer of move sequences, in every notation a user types.

An alg is a sequence of units; a unit is a move, a group ``( ... )``, a
conjugate ``[A: B]`` (= A B A⁻¹) or a commutator ``[A, B]`` (= A B A⁻¹ B⁻¹),
each followed by an optional amount: ``2`` (twice), ``'`` (inverse), ``2'``.
Units nest.  Units are separated by blanks, commas (outside a commutator's
brackets) or ``.`` (as Santa 2023 writes its solutions, ``r1.-f0``).

A move is a name with an optional power and prime (``R``, ``R2``, ``R2'``;
``’`` and ``′`` read as ``'``), or ``-name``, Santa's inverse.  When the
caller gives the names a puzzle has, a name that is itself a listed name wins
(``r0`` is a name, not ``r`` to the power 0), and names may be run together:
``RUR'U'`` reads as ``R U R' U'`` (the longest name that fits first).

:func:`expand` flattens an alg into letters ``(name, exponent)``, inverses
pushed down to the moves, refusing past a size (:data:`MAX_LETTERS`);
:func:`evaluate` computes the element an alg makes in any algebra without
expanding it, powers by exponentiation, so that ``(R U)5000000`` costs a few
compositions.  The reader keeps its own stack: nesting depth costs memory,
never Python's recursion limit.  :func:`format_alg` writes letters back in
the notation they came in (:func:`notation_of`): ``X'`` for cube notation,
``-X`` and ``.`` for Santa's.

>>> expand("[R, U]")
[('R', 1), ('U', 1), ('R', -1), ('U', -1)]
>>> expand("(R U)2'")
[('U', -1), ('R', -1), ('U', -1), ('R', -1)]
>>> expand("[x': R2 U]")
[('x', -1), ('R', 2), ('U', 1), ('x', 1)]
>>> expand("r1.-f0", ["r1", "f0"]), expand("RUR'U'", ["R", "U"])
([('r1', 1), ('f0', -1)], [('R', 1), ('U', 1), ('R', -1), ('U', -1)])
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from permgroup.errors import InputError, TooLong, did_you_mean

#: a move of a word as read, before it meets a puzzle: ``(name, exponent)``
Letter = tuple[str, int]
#: which names are moves: a collection of them (an unknown move's message then
#: lists them, and names may be run together), a test, or ``None`` for any name
Names = Callable[[str], bool] | Collection[str] | None

#: the most letters :func:`expand` writes out; past it, :func:`evaluate` (which
#: never expands) is the way to the element
MAX_LETTERS = 1_000_000

PRIMES = "'’′"
_BLANKS = " \t\r\n"
#: a run of name characters (up to a blank, a prime, a separator or a bracket)
_RUN = re.compile(r"[^\s" + PRIMES + r",.()\[\]:]*")
_AMOUNT = re.compile(r"(\d*)([" + PRIMES + "]?)")

T = TypeVar("T")


class Node(NamedTuple):
    """One unit of an alg: ``kind`` is ``"move"``, ``"group"``, ``"conjugate"``
    or ``"commutator"``; ``amount`` its exponent; a group's ``parts`` are its
    units, a conjugate's or commutator's the two sequences ``(A, B)``."""

    kind: str
    amount: int
    name: str = ""
    parts: tuple = ()


@dataclass(frozen=True)
class Algebra(Generic[T]):
    """What :func:`evaluate` needs of the elements it computes with: the
    identity, the product (``a`` then ``b``), the inverse and the ``k``-th
    power (``k`` of any sign, meant to cost far less than ``|k|`` products)."""

    identity: T
    compose: Callable[[T, T], T]
    inverse: Callable[[T], T]
    power: Callable[[T, int], T]


class _Reader:
    """The reader: one pass over the text with its own stack of open brackets."""

    def __init__(self, text: str, is_name: Names, what: str | None):
        self.names = None if is_name is None or callable(is_name) else list(is_name)
        if self.names is not None:
            known = set(self.names)
            is_name = known.__contains__
            # longest first, for names run together ("RUR'U'")
            self.by_length = sorted(known, key=len, reverse=True)
        self.text, self.is_name, self.what = text, is_name, what
        self.pos, self.token = 0, 0

    def fail(self, message: str, at: int | None = None, after: str = "") -> InputError:
        at = self.pos if at is None else at
        prefix = f"{self.what}: " if self.what else ""
        return InputError(f"{prefix}{message} at character {at + 1} (token {self.token}) "
                          f"of {self.text!r}{after}")

    def read(self) -> tuple[Node, ...]:
        text = self.text
        # an open bracket: [kind, where it opened, its sequences so far, its
        # separator, its token]
        stack: list[list] = [["", 0, [[]], "", 0]]
        blank = True
        while self.pos < len(text):
            c = text[self.pos]
            if c in _BLANKS or c == "." or (c == "," and stack[-1][0] != "["):
                self.pos += 1
                blank = True
                continue
            if blank:
                self.token += 1
                blank = False
            if c in "([":
                stack.append([c, self.pos, [[]], "", self.token])
                self.pos += 1
            elif c in ":,":
                frame = stack[-1]
                if frame[0] != "[" or len(frame[2]) != 1:
                    raise self.fail(f"unexpected {c!r}")
                frame[3] = c
                frame[2].append([])
                self.pos += 1
            elif c == ")":
                frame = stack.pop() if stack[-1][0] == "(" else None
                if frame is None:
                    raise self.fail("unexpected ')'")
                self.pos += 1
                stack[-1][2][-1].append(Node("group", self.amount(), parts=tuple(frame[2][0])))
            elif c == "]":
                frame = stack.pop() if stack[-1][0] == "[" else None
                if frame is None:
                    raise self.fail("unexpected ']'")
                if len(frame[2]) != 2:
                    raise self.fail("expected ':' or ',' inside [ ]")
                self.pos += 1
                kind = "conjugate" if frame[3] == ":" else "commutator"
                stack[-1][2][-1].append(Node(kind, self.amount(),
                                             parts=(tuple(frame[2][0]), tuple(frame[2][1]))))
            elif c in PRIMES:
                raise self.fail(f"unexpected {c!r}")
            else:
                stack[-1][2][-1].extend(self.moves())
        if len(stack) > 1:
            kind, where, _, _, self.token = stack[-1]
            raise self.fail(f"unclosed {kind}", where)
        return tuple(stack[0][2][0])

    def amount(self) -> int:
        match = _AMOUNT.match(self.text, self.pos)
        self.pos = match.end()
        digits, prime = match.groups()
        k = int(digits) if digits else 1
        return -k if prime else k

    def moves(self) -> list[Node]:
        """The moves of one run of name characters and the prime after it."""
        start, text = self.pos, self.text
        end = _RUN.match(text, start).end()
        run = text[start:end]
        self.pos = end
        found = self._split(run, start) if self.names is not None else [self._one(run, start)]
        if self.pos < len(text) and text[self.pos] in PRIMES:
            self.pos += 1
            last = found[-1]
            found[-1] = Node("move", -last.amount, name=last.name)
        return found

    def _one(self, run: str, start: int) -> Node:
        """A run that is one move: a name, a name and a power, or ``-`` and either."""
        if self.is_name is not None and self.is_name(run):
            return self._power(run, "", start)
        if run.startswith("-") and len(run) > 1:
            inner = self._one(run[1:], start + 1)
            return Node("move", -inner.amount, name=inner.name)
        stripped = run.rstrip("0123456789")
        if stripped and stripped != run and (self.is_name is None or self.is_name(stripped)):
            return self._power(stripped, run[len(stripped):], start)
        if self.is_name is None:
            return self._power(run, "", start)
        raise self.fail(f"unknown move {run!r}{did_you_mean(run, self.names or ())}", start,
                        self.known())

    def _split(self, run: str, start: int) -> list[Node]:
        """A run of names written together, the longest name that fits first."""
        if self.is_name(run):
            return [Node("move", 1, name=run)]
        stripped = run.rstrip("0123456789")
        if stripped != run and self.is_name(stripped):  # the usual case: R2
            return [self._power(stripped, run[len(stripped):], start)]
        out, i = [], 0
        while i < len(run):
            sign, name = 1, self._longest(run, i)
            if name is None and run[i] == "-" and self._longest(run, i + 1) is not None:
                sign, i = -1, i + 1
                name = self._longest(run, i)
            if name is None:
                after = f", after {run[:i]!r}" if i else ""
                raise self.fail(f"unknown move {run[i:]!r}{did_you_mean(run[i:], self.names)}",
                                start + i, after + self.known())
            j = i + len(name)
            while j < len(run) and run[j].isdigit():
                j += 1
            node = self._power(name, run[i + len(name):j], start + i)
            out.append(Node("move", sign * node.amount, name=name))
            i = j
        return out

    def _longest(self, run: str, i: int) -> str | None:
        return next((n for n in self.by_length if run.startswith(n, i)), None)

    def _power(self, name: str, digits: str, start: int) -> Node:
        if digits and int(digits) == 0:
            raise self.fail(f"power 0 in {name + digits!r}", start)
        return Node("move", int(digits) if digits else 1, name=name)

    def known(self) -> str:
        """The valid moves, for a message about an unknown one."""
        if not self.names:
            return ""
        return (f"; moves are {', '.join(self.names)} (' inverts, a number is a power: "
                f"{self.names[0]}2)")


def parse_alg(text: str, is_name: Names = None, what: str | None = "alg") -> tuple[Node, ...]:
    """The units of ``text``.  With ``is_name``, every move must be a name it
    accepts, or one of them when it is a collection of names (a token that is
    not is split into a name and a power, ``R2``).

    >>> [(u.kind, u.name, u.amount) for u in parse_alg("R2' (U R)")]
    [('move', 'R', -2), ('group', '', 1)]
    >>> parse_alg("R Q2", ["R", "U"])
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: alg: unknown move 'Q2' at character 3 (token 2) of 'R Q2'; moves are R, U (' inverts, a number is a power: R2)
    >>> parse_alg("[R: U", what="derived move 'A'")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: derived move 'A': unclosed [ at character 1 (token 1) of '[R: U'
    >>> len(parse_alg("(" * 5000 + "R" + ")" * 5000))
    1
    """
    return _Reader(text, is_name, what).read()


def _fold(units: Sequence[Node], one: Callable[[], T], leaf: Callable[[Node], T],
          mul: Callable[[T, T], T], finish: Callable[[Node, list[T]], T]) -> T:
    """The value of a sequence of units, children before parents, with a stack
    of our own: ``leaf`` values a move, ``mul`` appends a value to a sequence's,
    ``finish`` values a bracket from its sequences' values."""
    # a frame: [units, next index, value so far, the bracket it belongs to, values done]
    stack: list[list] = [[units, 0, one(), None, []]]
    while True:
        frame = stack[-1]
        seq, i = frame[0], frame[1]
        if i < len(seq):
            unit = seq[i]
            frame[1] = i + 1
            if unit.kind == "move":
                frame[2] = mul(frame[2], leaf(unit))
            else:
                first = unit.parts if unit.kind == "group" else unit.parts[0]
                stack.append([first, 0, one(), unit, []])
            continue
        stack.pop()
        node, done = frame[3], frame[4] + [frame[2]]
        if node is None:
            return frame[2]
        if node.kind != "group" and len(done) == 1:
            stack.append([node.parts[1], 0, one(), node, done])
            continue
        parent = stack[-1]
        parent[2] = mul(parent[2], finish(node, done))


def _size(units: Sequence[Node]) -> int:
    """How many letters the units expand to."""
    def finish(node: Node, parts: list[int]) -> int:
        once = parts[0] if node.kind == "group" else \
            2 * parts[0] + parts[1] * (1 if node.kind == "conjugate" else 2)
        return once * abs(node.amount)
    return _fold(units, int, lambda _: 1, int.__add__, finish)


def _inverse(letters: list[Letter]) -> list[Letter]:
    return [(name, -k) for name, k in reversed(letters)]


def letters_of(units: Sequence[Node], limit: int = MAX_LETTERS, text: str = "") -> list[Letter]:
    """The letters of parsed units (:class:`InputError` past ``limit`` of them)."""
    if all(u.kind == "move" for u in units):  # a plain sequence: nothing to fold
        if len(units) > limit:
            raise TooLong(f"{text[:40]!r} has {len(units):,} moves, more than {limit:,}")
        return [(u.name, u.amount) for u in units]
    size = _size(units)
    if size > limit:
        raise TooLong(f"{text[:40]!r} expands to {size:,} moves, more than {limit:,}; "
                         "compute its element instead (permgroup.formats.alg.evaluate)")

    def extend(acc: list[Letter], more: list[Letter]) -> list[Letter]:
        acc.extend(more)
        return acc

    def finish(node: Node, parts: list[list[Letter]]) -> list[Letter]:
        if node.kind == "group":
            once = parts[0]
        else:
            a, b = parts
            once = a + b + _inverse(a) + (_inverse(b) if node.kind == "commutator" else [])
        return once * node.amount if node.amount >= 0 else _inverse(once) * -node.amount

    return _fold(units, list, lambda u: [(u.name, u.amount)], extend, finish)


def expand(text: str, is_name: Names = None, what: str | None = "alg",
           limit: int = MAX_LETTERS) -> list[Letter]:
    """The letters ``(name, exponent)`` of an alg, in order (see the module
    docstring); :class:`InputError` when there would be more than ``limit``.

    >>> expand("(R U)5000000")
    Traceback (most recent call last):
    ...
    permgroup.errors.TooLong: '(R U)5000000' expands to 10,000,000 moves, more than 1,000,000; compute its element instead (permgroup.formats.alg.evaluate)
    """
    return letters_of(parse_alg(text, is_name, what), limit, text)


def evaluate(alg: str | Sequence[Node], element: Callable[[str], T], algebra: Algebra[T],
             is_name: Names = None, what: str | None = "alg") -> T:
    """The element an alg makes: ``element(name)`` for each move, brackets'
    amounts by ``algebra.power``, nothing expanded.

    >>> from permgroup.perm import compose, identity, inverse, power
    >>> perms = Algebra(identity(3), compose, inverse, power)
    >>> gens = {"A": (1, 0, 2), "B": (0, 2, 1)}
    >>> evaluate("((A B)100000)100000", gens.get, perms, gens)
    (2, 0, 1)
    """
    units = parse_alg(alg, is_name, what) if isinstance(alg, str) else alg
    a = algebra

    def leaf(unit: Node) -> T:
        x = element(unit.name)
        return x if unit.amount == 1 else a.power(x, unit.amount)

    def finish(node: Node, parts: list[T]) -> T:
        if node.kind == "group":
            once = parts[0]
        else:
            x, y = parts
            once = a.compose(a.compose(x, y), a.inverse(x))
            if node.kind == "commutator":
                once = a.compose(once, a.inverse(y))
        return once if node.amount == 1 else a.power(once, node.amount)

    return _fold(units, lambda: a.identity, leaf, a.compose, finish)


def names_used(text: str) -> set[str]:
    """The move names an alg refers to.

    >>> sorted(names_used("[R, U2] (F D')3"))
    ['D', 'F', 'R', 'U']
    """
    found: set[str] = set()
    stack = list(parse_alg(text))
    while stack:
        unit = stack.pop()
        if unit.kind == "move":
            found.add(unit.name)
        elif unit.kind == "group":
            stack.extend(unit.parts)
        else:
            stack.extend(unit.parts[0] + unit.parts[1])
    return found


#: how a notation writes a word: the separator, and whether an inverse is ``-X``
NOTATIONS = {"cube": (" ", False), "santa": (".", True)}


def notation_of(text: str) -> str:
    """``"santa"`` for text written as Santa 2023 writes moves (``-X`` inverses
    or ``.`` between moves), else ``"cube"``.

    >>> notation_of("r1.-f0"), notation_of("-r0 f1"), notation_of("R U' F2")
    ('santa', 'santa', 'cube')
    """
    return "santa" if re.search(r"(^|[\s.])-\S|\S\.\S", text) else "cube"


def power_name(name: str, k: int, n: int) -> str:
    """The name of ``X^k`` for a move ``X`` of order ``n``, as twsearch and
    cubing.js write it: the shorter of ``k`` and ``n - k`` turns, a prime for
    the inverse direction (an order-2 move is only ``X``, order 3 ``X``, ``X'``).

    >>> [power_name("X", k, 5) for k in range(1, 5)]
    ['X', 'X2', "X2'", "X'"]
    >>> [power_name("X", k, 4) for k in range(1, 4)]
    ['X', 'X2', "X'"]
    """
    k %= n
    if n - k < k:
        return name + ("'" if n - k == 1 else f"{n - k}'")
    return name if k == 1 else f"{name}{k}"


def merged(letters: Sequence[Letter], orders: dict[str, int]) -> list[Letter]:
    """Neighbouring powers of one move merged (``L L`` is ``L2``, ``r2 r2`` is
    nothing), exponents reduced modulo each move's order.

    >>> merged([("L", 1), ("L", 1), ("r", 2), ("r", 2), ("U", 5)], {"L": 4, "r": 4, "U": 4})
    [('L', 2), ('U', 1)]
    """
    out: list[Letter] = []
    for name, k in letters:
        n = orders[name]
        if out and out[-1][0] == name:
            k += out.pop()[1]
        if k % n:
            out.append((name, k % n))
    return out


def format_alg(letters: Sequence[Letter], orders: dict[str, int], notation: str = "cube"
               ) -> str:
    """Letters as text in ``notation`` (``"cube"``: ``R2 U'``; ``"santa"``:
    ``r.r.-u``, where only a move and its inverse are names), neighbouring
    powers of a move merged first (:func:`merged`).

    >>> orders = {"R": 4, "U": 4}
    >>> format_alg([("R", 1), ("R", 1), ("U", -1)], orders)
    "R2 U'"
    >>> format_alg([("R", 1), ("R", 1), ("U", -1)], orders, "santa")
    'R.R.-U'
    """
    separator, minus = NOTATIONS[notation]
    out = []
    for name, k in merged(letters, orders):
        n = orders[name]
        if not minus:
            out.append(power_name(name, k, n))
        elif n - k < k:
            out += [f"-{name}"] * (n - k)
        else:
            out += [name] * k
    return separator.join(out)
