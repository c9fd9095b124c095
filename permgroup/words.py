"""Move sequences as text: ``"R U R' U'"``, ``"R2"``, ``"RUR'U'"``.

A *word* is read against an *alphabet*, the named generators of a puzzle (and,
on request, its whole-puzzle symmetries).  Each token is a generator name
followed by an optional power and an optional prime: ``X``, ``X'``, ``X2``,
``X2'`` (``'`` inverts; ``’`` and ``′`` are read as ``'``).  Tokens are
separated by blanks or commas; without separators the longest generator name
that fits is taken, so ``"RUR'U'"`` reads as ``R U R' U'``.

Text is read by the one reader of moves, :mod:`permgroup.formats.alg`.
Internally a word is a tuple of *letters* ``(generator, exponent)`` with the
exponent reduced modulo the generator's order, so ``R3`` and ``R'`` are the
same letter; letters print with the metric's names (``R``, ``R2``, ``R'``).

>>> from permgroup.perm import from_cycles
>>> from permgroup.puzzle import Puzzle
>>> sq = Puzzle("square", 4, {"T": from_cycles([(0, 1, 2, 3)], 4), "S": (1, 0, 2, 3)})
>>> format_word(sq, parse_word(sq, "T T2' S T3"))
"T T2 S T'"
>>> parse_word(sq, "T Q")
Traceback (most recent call last):
...
permgroup.errors.InputError: unknown move 'Q' at character 3 (token 2) of 'T Q'; moves are T, S (' inverts, a number is a power: T2)
"""
from __future__ import annotations

from collections.abc import Sequence

from permgroup.errors import InputTypeError
from permgroup.formats.alg import Letter, expand, power_name
from permgroup.perm import Perm, act, compose, identity, order, power
from permgroup.puzzle import Puzzle

Word = tuple[Letter, ...]



def alphabet(puzzle: Puzzle, symmetries: bool = False) -> dict[str, Perm]:
    """The named permutations a word may use: generators, then symmetries.

    >>> from permgroup.puzzle import Puzzle
    >>> list(alphabet(Puzzle("p", 2, {"A": (1, 0)}, symmetries={"flip": (1, 0)}), True))
    ['A', 'flip']
    """
    letters = dict(puzzle.generators)
    if symmetries:
        letters.update(puzzle.symmetries)
    return letters


def _orders(letters: dict[str, Perm]) -> dict[str, int]:
    return {name: order(p) for name, p in letters.items()}


def word_text(moves: str | Sequence[str], what: str = "moves") -> str:
    """A word given as text or as a list of move names, as text;
    :class:`InputTypeError` naming ``what`` for anything else.

    >>> word_text(["R", "U'"]), word_text("R U'")
    ("R U'", "R U'")
    >>> word_text(42, "draw")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputTypeError: draw: expected moves as text ("R U R'") or a list of move names, got int
    """
    if isinstance(moves, str):
        return moves
    if isinstance(moves, Sequence) and all(isinstance(m, str) for m in moves):
        return " ".join(moves)
    raise InputTypeError(f"{what}: expected moves as text (\"R U R'\") or a list of move names, "
                         f"got {type(moves).__name__}")


def parse_word(puzzle: Puzzle, text: str | Sequence[str], symmetries: bool = False) -> Word:
    """The letters of ``text`` (read by :func:`permgroup.formats.alg.parse_alg`,
    so brackets, ``-X`` and ``.`` work too); :class:`InputError` names a bad
    token and where it is.

    Powers that are the identity (``R4`` for a quarter turn) are dropped.

    >>> from permgroup.puzzle import Puzzle
    >>> p = Puzzle("p", 3, {"A": (1, 2, 0)})
    >>> parse_word(p, "A A' A2 A3")
    (('A', 1), ('A', 2), ('A', 2))
    """
    text = word_text(text)
    letters = alphabet(puzzle, symmetries)
    orders = _orders(letters)
    word = []
    for name, k in expand(text, letters, what=None):
        if k % orders[name]:
            word.append((name, k % orders[name]))
    return tuple(word)


def letter_name(letter: Letter, puzzle: Puzzle) -> str:
    """The printed name of a letter: ``R``, ``R2``, ``R'``.

    >>> from permgroup.puzzle import Puzzle
    >>> letter_name(("A", 2), Puzzle("p", 3, {"A": (1, 2, 0)}))
    "A'"
    """
    name, k = letter
    return power_name(name, k, order(alphabet(puzzle, True)[name]))


def word_names(puzzle: Puzzle, word: Word) -> tuple[str, ...]:
    """The printed names of the letters of ``word``.

    >>> from permgroup.puzzle import Puzzle
    >>> word_names(Puzzle("p", 4, {"A": (1, 2, 3, 0)}), (("A", 1), ("A", 2), ("A", 3)))
    ('A', 'A2', "A'")
    """
    orders = _orders(alphabet(puzzle, True))
    return tuple(power_name(name, k, orders[name]) for name, k in word)


def format_word(puzzle: Puzzle, word: Word) -> str:
    """The word as text, names separated by blanks (``""`` for the empty word).

    >>> from permgroup.puzzle import Puzzle
    >>> format_word(Puzzle("p", 3, {"A": (1, 2, 0)}), (("A", 1), ("A", 2)))
    "A A'"
    """
    return " ".join(word_names(puzzle, word))


def word_permutation(puzzle: Puzzle, word: Word) -> Perm:
    """The product of the letters, in array form (left to right).

    >>> from permgroup.puzzle import Puzzle
    >>> word_permutation(Puzzle("p", 3, {"A": (1, 2, 0)}), (("A", 1), ("A", 1)))
    (2, 0, 1)
    """
    letters = alphabet(puzzle, True)
    powers: dict[Letter, Perm] = {}
    result = identity(puzzle.degree)
    for letter in word:
        if letter not in powers:
            powers[letter] = power(letters[letter[0]], letter[1])
        result = compose(result, powers[letter])
    return result


def invert_word(puzzle: Puzzle, word: Word) -> Word:
    """The word of the inverse: letters reversed, each inverted.

    >>> from permgroup.puzzle import Puzzle
    >>> invert_word(Puzzle("p", 4, {"A": (1, 2, 3, 0)}), (("A", 1), ("A", 2)))
    (('A', 2), ('A', 3))
    """
    orders = _orders(alphabet(puzzle, True))
    return tuple((name, -k % orders[name]) for name, k in reversed(word))


def join_words(puzzle: Puzzle, first: Word, second: Word) -> Word:
    """``first`` then ``second``, merging and cancelling letters where they meet.

    >>> from permgroup.puzzle import Puzzle
    >>> p = Puzzle("p", 4, {"A": (1, 2, 3, 0), "B": (1, 0, 2, 3)})
    >>> join_words(p, (("B", 1), ("A", 1)), (("A", 3), ("B", 1), ("A", 2)))
    (('A', 2),)
    """
    orders = _orders(alphabet(puzzle, True))
    left = list(first)
    right = list(second)
    while left and right and left[-1][0] == right[0][0]:
        name = right[0][0]
        k = (left.pop()[1] + right.pop(0)[1]) % orders[name]
        if k:
            left.append((name, k))
            break
    return tuple(left + right)


def reduce_word(puzzle: Puzzle, word: Sequence[Letter]) -> Word:
    """Merge neighbouring powers of the same generator and drop identities.

    >>> from permgroup.puzzle import Puzzle
    >>> p = Puzzle("p", 4, {"A": (1, 2, 3, 0), "B": (1, 0, 2, 3)})
    >>> word_names(p, reduce_word(p, parse_word(p, "A B B A")))
    ('A2',)
    """
    result: Word = ()
    for letter in word:
        result = join_words(puzzle, result, (letter,))
    return result


def apply_word(puzzle: Puzzle, state: Sequence, moves: str | Sequence[str]) -> tuple:
    """The state after turning ``moves`` (text such as ``"R U' F2"``, or a list of
    move names) from ``state``; :class:`InputError` names an unknown move.

    >>> from permgroup.puzzle import Puzzle
    >>> apply_word(Puzzle("t", 3, {"T": (1, 2, 0)}), "abc", "T T")
    ('b', 'c', 'a')
    """
    return act(state, word_permutation(puzzle, parse_word(puzzle, moves)))
