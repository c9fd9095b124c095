"""Group elements and states of a puzzle, for interactive work.

An :class:`Element` is a permutation of the puzzle's stickers (array form, see
:mod:`permgroup.perm`) together with the word it was built from, when known.
A :class:`State` is a colouring: the colour at each position.  They are
different things: the element ``g`` *produces* the state ``act(solved, g)``,
and many elements may produce the same state (when colours repeat).

Products read left to right, as in sympy and in move sequences: ``a * b`` is
``a`` then ``b``.  The two bracket operations follow the puzzle solvers'
bracket notation:

* ``a.conjugate(s)`` is ``s * a * s**-1`` (set up, do, undo: ``[S: A]``);
* ``a.commutator(b)`` is ``a * b * a**-1 * b**-1`` (``[A, B]``).

(GAP's ``a^s`` and sympy's ``a ^ s`` are ``s**-1 * a * s``; GAP's
``Comm(a, b)`` is ``a**-1 * b**-1 * a * b``.)

Pieces give the invariants: for each kind of piece the
permutation of the pieces and its parity, and the *twist* (``flip`` when a
piece has two stickers): the sum over pieces of how far each piece's first
sticker is turned from its slot's first sticker, modulo the number of stickers.

>>> from permgroup.perm import from_cycles
>>> from permgroup.puzzle import Puzzle
>>> p = Puzzle("pair", 4, {"A": from_cycles([(0, 1)], 4), "B": from_cycles([(1, 2, 3)], 4)},
...            pieces={"point": ((0,), (1,), (2,), (3,))})
>>> a, b = Element.from_word(p, "A"), Element.from_word(p, "B")
>>> c = a.commutator(b)
>>> c.word, c.cycles(), c.order()
(('A', 'B', 'A', "B'"), [(0, 1, 3)], 3)
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from permgroup.errors import InputError, InputTypeError
from permgroup.perm import Perm, act, compose, identity, inverse, order, parity, power
from permgroup.puzzle import Puzzle
from permgroup.words import (Word, alphabet, format_word, invert_word, join_words, parse_word,
                             word_names, word_permutation)

if TYPE_CHECKING:  # pragma: no cover
    from sympy.combinatorics import Permutation

#: products and powers forget their word past this many letters
MAX_WORD = 1000


# --- cycles -------------------------------------------------------------------

def cycles_of(p: Sequence[int], singletons: bool = False) -> list[tuple[int, ...]]:
    """The cycles of ``p``, each starting at its smallest point, in order of it.

    >>> cycles_of((1, 2, 0, 3, 5, 4))
    [(0, 1, 2), (4, 5)]
    """
    seen = [False] * len(p)
    result = []
    for start in range(len(p)):
        if seen[start]:
            continue
        cycle = []
        i = start
        while not seen[i]:
            seen[i] = True
            cycle.append(i)
            i = p[i]
        if len(cycle) > 1 or singletons:
            result.append(tuple(cycle))
    return result


def cycle_notation(p: Sequence[int], one_based: bool = False, separator: str = " ") -> str:
    """Cycle notation as sympy prints it (``"(0 1 2)(4 5)"``), ``"()"`` for the identity.

    >>> cycle_notation((1, 2, 0, 3, 5, 4))
    '(0 1 2)(4 5)'
    >>> cycle_notation((1, 2, 0), one_based=True, separator=",")
    '(1,2,3)'
    """
    shift = 1 if one_based else 0
    text = "".join("(" + separator.join(str(i + shift) for i in c) + ")" for c in cycles_of(p))
    return text or "()"


# --- pieces -------------------------------------------------------------------

@dataclass(frozen=True)
class PieceForm:
    """Where each piece of one kind went: piece ``k`` sits in slot ``where[k]``
    (slot ``j`` is piece ``j``'s home) turned by ``twist[k]`` places.

    Bars 0 and 1 swap places with a flip on the way, bar 2 flips in place:

    >>> form = piece_form([(0, 1), (2, 3), (4, 5)], (3, 2, 0, 1, 5, 4), "bar")
    >>> form
    PieceForm(kind='bar', modulus=2, where=(1, 0, 2), twist=(1, 0, 1))
    >>> form.cycles()
    [((0, 1), 1), ((2,), 1)]
    """

    kind: str
    modulus: int
    where: tuple[int, ...]
    twist: tuple[int, ...]

    def cycles(self) -> list[tuple[tuple[int, ...], int]]:
        """Non-trivial piece cycles with their total twist; a piece turned in
        place is a cycle of length 1."""
        return [(c, sum(self.twist[k] for k in c) % self.modulus)
                for c in cycles_of(self.where, singletons=True)
                if len(c) > 1 or self.twist[c[0]]]


_INDEX: tuple = (None, None)  # the last pieces indexed (a tuple) and their index


def _piece_index(pieces: Sequence[Sequence[int]]) -> tuple[dict, dict, set]:
    """The slot and place of each sticker of ``pieces``, and their sizes; kept
    for the last tuple of pieces (callers take the form of every move in turn)."""
    global _INDEX
    last = _INDEX
    if last[0] is pieces:
        return last[1]
    slot_of, place_of = {}, {}
    for j, piece in enumerate(pieces):
        for u, x in enumerate(piece):
            slot_of[x], place_of[x] = j, u
    index = slot_of, place_of, {len(piece) for piece in pieces}
    if isinstance(pieces, tuple):
        _INDEX = (pieces, index)
    return index


def piece_form(pieces: Sequence[Sequence[int]], p: Sequence[int], kind: str = "piece") -> PieceForm:
    """The :class:`PieceForm` of ``p`` for ``pieces`` (tuples of stickers in an
    order every move keeps cyclically).

    >>> form = piece_form([(0, 1), (2, 3)], (3, 2, 0, 1))
    >>> form.where, form.twist
    ((1, 0), (1, 0))
    >>> piece_form(((0,), (2,), (1,)), (2, 0, 1)).where   # one sticker a piece
    (1, 2, 0)
    """
    slot_of, place_of, sizes = _piece_index(pieces)
    if sizes == {1}:  # pieces of one sticker (a family's points): no turn, one lookup each
        where = [slot_of.get(p[x], -1) for (x,) in pieces]
        if -1 in where:
            k = where.index(-1)
            raise ValueError(f"the permutation does not carry {kind} {tuple(pieces[k])} onto a "
                             f"{kind} with its stickers in the same cyclic order")
        return PieceForm(kind, 1, tuple(where), (0,) * len(where))
    where, twist = [], []
    for k, piece in enumerate(pieces):
        m = len(piece)
        j, t = slot_of.get(p[piece[0]], -1), place_of.get(p[piece[0]], 0)
        if j < 0 or len(pieces[j]) != m or any(
                p[piece[u]] != pieces[j][(u + t) % m] for u in range(m)):
            raise ValueError(f"the permutation does not carry {kind} {tuple(piece)} onto a "
                             f"{kind} with its stickers in the same cyclic order")
        where.append(j)
        twist.append(t)
    return PieceForm(kind, len(pieces[0]) if pieces else 1, tuple(where), tuple(twist))


# --- elements -----------------------------------------------------------------

class Element:
    """A permutation of a puzzle's stickers, with the word it came from.

    Build one with :meth:`from_word`, :meth:`identity`, :meth:`from_sympy` or
    ``Element(puzzle, array_form)``; combine with ``*``, ``**`` and the
    methods below.  Equality compares permutations only.

    >>> from permgroup.puzzle import Puzzle
    >>> p = Puzzle("tri", 3, {"T": (1, 2, 0)}, solved="abc")
    >>> t = Element.from_word(p, "T")
    >>> (t * t).word, (t ** -1).perm, t ** 3 == Element.identity(p)
    (("T'",), (2, 0, 1), True)
    """

    __slots__ = ("puzzle", "perm", "letters")

    def __init__(self, puzzle: Puzzle, perm: Sequence[int], letters: Word | None = None):
        perm = tuple(int(i) for i in perm)
        if sorted(perm) != list(range(puzzle.degree)):
            raise InputError(f"not a permutation of the {puzzle.degree} stickers of "
                             f"{puzzle.name}")
        self.puzzle = puzzle
        self.perm: Perm = perm
        self.letters: Word | None = letters

    # construction
    @classmethod
    def from_word(cls, puzzle: Puzzle, text: str, symmetries: bool = False) -> Element:
        """The product of a move sequence such as ``"R U R' U'"`` (see :mod:`permgroup.words`).

        >>> from permgroup.puzzle import Puzzle
        >>> Element.from_word(Puzzle("tri", 3, {"T": (1, 2, 0)}), "T T").perm
        (2, 0, 1)
        """
        letters = parse_word(puzzle, text, symmetries)
        return cls(puzzle, word_permutation(puzzle, letters), letters)

    @classmethod
    def identity(cls, puzzle: Puzzle) -> Element:
        """The identity (the empty word).

        >>> from permgroup.puzzle import Puzzle
        >>> Element.identity(Puzzle("tri", 3, {"T": (1, 2, 0)})).perm
        (0, 1, 2)
        """
        return cls(puzzle, identity(puzzle.degree), ())

    @classmethod
    def from_sympy(cls, puzzle: Puzzle, permutation: Permutation) -> Element:
        """An element from a sympy ``Permutation`` (padded to the puzzle's degree).

        >>> from sympy.combinatorics import Permutation
        >>> from permgroup.puzzle import Puzzle
        >>> Element.from_sympy(Puzzle("tri", 3, {"T": (1, 2, 0)}), Permutation(0, 1)).perm
        (1, 0, 2)
        """
        form = list(permutation.array_form)
        return cls(puzzle, form + list(range(len(form), puzzle.degree)))

    # algebra
    def _check(self, other: Element) -> None:
        if not isinstance(other, Element):
            raise InputTypeError(f"cannot combine an Element with {type(other).__name__}")
        if other.puzzle.degree != self.puzzle.degree:
            raise InputError(f"elements of {self.puzzle.name} and {other.puzzle.name} "
                             "act on different stickers")

    def _joined(self, other: Element) -> Word | None:
        if self.letters is None or other.letters is None:
            return None
        if len(self.letters) + len(other.letters) > MAX_WORD:
            return None
        mine, theirs = alphabet(self.puzzle, True), alphabet(other.puzzle, True)
        if any(mine.get(name) != theirs[name] for name, _ in other.letters):
            return None  # the other word uses moves this puzzle does not name
        return join_words(self.puzzle, self.letters, other.letters)

    def __mul__(self, other: Element) -> Element:
        self._check(other)
        return Element(self.puzzle, compose(self.perm, other.perm), self._joined(other))

    def inverse(self) -> Element:
        """The inverse element (its word reversed and inverted).

        >>> from permgroup.puzzle import Puzzle
        >>> Element.from_word(Puzzle("tri", 3, {"T": (1, 2, 0)}), "T").inverse().word
        ("T'",)
        """
        letters = None if self.letters is None else invert_word(self.puzzle, self.letters)
        return Element(self.puzzle, inverse(self.perm), letters)

    def __pow__(self, k: int) -> Element:
        n = self.order()
        # the exponent of least size with the same power, so the word stays short
        k = k % n if k % n <= n // 2 else k % n - n
        perm = power(self.perm, k)
        word: Word | None = None
        if self.letters is not None and abs(k) * len(self.letters) <= MAX_WORD:
            step = self.letters if k >= 0 else invert_word(self.puzzle, self.letters)
            word = ()
            for _ in range(abs(k)):
                word = join_words(self.puzzle, word, step)
        return Element(self.puzzle, perm, word)

    def conjugate(self, setup: Element) -> Element:
        """``setup * self * setup**-1`` (bracket notation ``[S: A]``).

        >>> from permgroup.perm import from_cycles
        >>> from permgroup.puzzle import Puzzle
        >>> p = Puzzle("p", 3, {"A": (1, 0, 2), "B": (0, 2, 1)})
        >>> Element.from_word(p, "A").conjugate(Element.from_word(p, "B")).cycles()
        [(0, 2)]
        """
        return setup * self * setup.inverse()

    def commutator(self, other: Element) -> Element:
        """``self * other * self**-1 * other**-1`` (bracket notation ``[A, B]``).

        >>> from permgroup.puzzle import Puzzle
        >>> p = Puzzle("p", 3, {"A": (1, 0, 2), "B": (0, 2, 1)})
        >>> Element.from_word(p, "A").commutator(Element.from_word(p, "B")).cycles()
        [(0, 1, 2)]
        """
        return self * other * self.inverse() * other.inverse()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Element) and self.perm == other.perm

    def __hash__(self) -> int:
        return hash(self.perm)

    # structure
    @property
    def word(self) -> tuple[str, ...] | None:
        """The move names of the word this element was built from (``None`` if unknown)."""
        return None if self.letters is None else word_names(self.puzzle, self.letters)

    def order(self) -> int:
        """The least ``k > 0`` with ``self ** k`` the identity.

        >>> from permgroup.puzzle import Puzzle
        >>> Element(Puzzle("p", 5, {}), (1, 2, 0, 4, 3)).order()
        6
        """
        return order(self.perm)

    def cycles(self) -> list[tuple[int, ...]]:
        """The sticker cycles (0-based, smallest point first)."""
        return cycles_of(self.perm)

    def cycle_type(self) -> dict[int, int]:
        """Cycle length -> number of cycles, on stickers, fixed points included
        (sympy's ``cycle_structure``).

        >>> from permgroup.puzzle import Puzzle
        >>> Element(Puzzle("p", 5, {}), (1, 2, 0, 3, 4)).cycle_type()
        {1: 2, 3: 1}
        """
        return dict(sorted(Counter(len(c) for c in cycles_of(self.perm, singletons=True)).items()))

    def pieces(self) -> dict[str, PieceForm]:
        """For each kind of piece, where each piece went and how it is turned."""
        return {kind: piece_form(pieces, self.perm, kind)
                for kind, pieces in self.puzzle.pieces.items()}

    def piece_cycle_type(self) -> dict[str, dict[tuple[int, int], int]]:
        """For each kind, ``(cycle length, twist of the cycle) -> count`` over the
        piece cycles that move or turn something.

        >>> from permgroup.puzzle import Puzzle
        >>> p = Puzzle("p", 4, {}, pieces={"bar": ((0, 1), (2, 3))})
        >>> Element(p, (1, 0, 2, 3)).piece_cycle_type()
        {'bar': {(1, 1): 1}}
        """
        return {kind: dict(sorted(Counter((len(c), t) for c, t in form.cycles()).items()))
                for kind, form in self.pieces().items()}

    def parity(self) -> int:
        """The parity of the sticker permutation (0 even, 1 odd)."""
        return parity(self.perm)

    def invariants(self) -> dict[str, int]:
        """``"<kind> parity"`` of each kind's piece permutation, and ``"<kind>
        twist"`` (``flip`` for two-sticker pieces) modulo the sticker count.

        >>> from permgroup.puzzle import Puzzle
        >>> p = Puzzle("p", 4, {}, pieces={"bar": ((0, 1), (2, 3))})
        >>> Element(p, (3, 2, 0, 1)).invariants()
        {'bar parity': 1, 'bar flip': 1}
        """
        result = {}
        for kind, form in self.pieces().items():
            result[f"{kind} parity"] = parity(form.where)
            if form.modulus > 1:
                name = "flip" if form.modulus == 2 else "twist"
                result[f"{kind} {name}"] = sum(form.twist) % form.modulus
        return result

    def normalized(self) -> Element:
        """The canonical element of this element's class under whole-puzzle
        symmetries (see :mod:`permgroup.normalize`)."""
        from permgroup.normalize import Normalizer

        return Element(self.puzzle, Normalizer.from_puzzle(self.puzzle).normalize(self.perm),
                       self.letters)

    def to_sympy(self) -> Permutation:
        """The same permutation as a sympy ``Permutation``.

        >>> from permgroup.puzzle import Puzzle
        >>> Element(Puzzle("p", 3, {}), (1, 0, 2)).to_sympy()
        Permutation(2)(0, 1)
        """
        from sympy.combinatorics import Permutation

        return Permutation(list(self.perm))

    def state(self) -> State:
        """The colouring this element produces from the solved puzzle."""
        return State(self.puzzle, act(self.puzzle.solved, self.perm))

    # display
    def __str__(self) -> str:
        if self.letters is not None:
            return format_word(self.puzzle, self.letters) or "(identity)"
        return cycle_notation(self.perm)

    def __repr__(self) -> str:
        if self.letters is not None:
            return f"Element({self.puzzle.name}, {format_word(self.puzzle, self.letters)!r})"
        return f"Element({self.puzzle.name}, {cycle_notation(self.perm)})"

    def _repr_html_(self) -> str:
        word = "unknown" if self.letters is None else (
            escape(format_word(self.puzzle, self.letters)) or "(empty word)")
        facts = [f"order {self.order()}"]
        try:
            facts += [f"{k} {v}" for k, v in self.invariants().items()]
        except ValueError:  # pieces the element does not respect: skip the invariants
            pass
        picture = ""
        if self.puzzle.solved:
            picture = f"<div>{self.state()._repr_svg_()}</div>"
        return (f"<div><div><b>{escape(self.puzzle.name)}</b> element, word: <code>{word}"
                f"</code></div><div>cycles: <code>{cycle_notation(self.perm)}</code></div>"
                f"<div>{escape(', '.join(facts))}</div>{picture}</div>")


# --- states -------------------------------------------------------------------

@dataclass(frozen=True)
class State:
    """A colouring of a puzzle's positions; draws itself in Jupyter
    (:func:`permgroup.drawing.picture`: the puzzle's drawing, else strips).

    >>> from permgroup.puzzle import Puzzle
    >>> p = Puzzle("tri", 3, {"T": (1, 2, 0)}, solved="abc")
    >>> State.solved(p).apply("T").colours
    ('c', 'a', 'b')
    """

    puzzle: Puzzle
    colours: tuple

    @classmethod
    def solved(cls, puzzle: Puzzle) -> State:
        """The solved colouring."""
        return cls(puzzle, tuple(puzzle.solved))

    def apply(self, move: Element | str) -> State:
        """The state after an element or a move sequence (``"R U R'"``)."""
        if isinstance(move, str):
            move = Element.from_word(self.puzzle, move)
        return State(self.puzzle, act(self.colours, move.perm))

    def __repr__(self) -> str:
        text = "".join(map(str, self.colours)) if all(
            isinstance(c, str) and len(c) == 1 for c in self.colours) else self.colours
        return f"State({self.puzzle.name}, {text!r})"

    def _repr_svg_(self) -> str:
        from permgroup.drawing import picture

        return picture(self.puzzle, self.colours)


def state_colours(puzzle: Puzzle, state: State | Sequence) -> tuple:
    """The colour at each position of a state given as a :class:`State` or a
    sequence of colours.  Where every position has a colour of its own (a
    family's ``point0``, ``point1``...), the numbers ``0..n-1`` may stand for
    them: position ``i`` shows the colour position ``state[i]`` has when solved.

    >>> from permgroup.puzzle import Puzzle
    >>> p = Puzzle("p", 3, {"T": (1, 2, 0)}, solved=("point0", "point1", "point2"))
    >>> state_colours(p, [2, 0, 1])
    ('point2', 'point0', 'point1')
    >>> state_colours(p, None)
    Traceback (most recent call last):
    ...
    permgroup.errors.InputTypeError: p: a state is an Element, a State or a sequence of 3 colours, not NoneType
    """
    if isinstance(state, State):
        return tuple(state.colours)
    if isinstance(state, (str, Sequence)) or hasattr(state, "__array__"):
        out = tuple(state.tolist() if hasattr(state, "tolist") else state)
    else:
        raise InputTypeError(f"{puzzle.name}: a state is an Element, a State or a sequence of "
                             f"{puzzle.degree} colours, not {type(state).__name__}")
    solved = tuple(puzzle.solved)
    if (len(set(solved)) == len(solved) == len(out) and not set(out) <= set(solved)
            and all(isinstance(c, int) for c in out) and sorted(out) == list(range(len(out)))):
        out = tuple(solved[c] for c in out)
    return out
