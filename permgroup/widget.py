"""A puzzle you can turn in Jupyter, with live distances (an ``anywidget``).

:class:`PuzzleWidget` draws the current state (:func:`permgroup.drawing.picture`:
the puzzle's drawing from its geometry, or strips of numbered pieces), shows a button for every move of
the metric, an undo and a reset, the move history as editable text, and
read-outs that follow every move: the distance to the solved state and an
optimal solution (playable step by step), the element's order and cycle type,
and the distance and solution to a second, target state.

Python is the single source of truth: the browser only sends requests (a
move, undo, reset, typed text) as custom messages, and Python computes the
state, its picture and the read-outs and syncs them back as traits.  So the
whole behaviour can be driven and tested from Python:

>>> from permgroup.formats import resolve
>>> mini = resolve("minicube").puzzle
>>> w = PuzzleWidget(mini)
>>> w.history = "R U"
>>> w.state == "".join(Element.from_word(mini, "R U").state().colours)
True
>>> _ = w.wait(); w.distance
2

Distances come from the one solve path (:func:`permgroup.solve`, its exact
methods: a table, or a search within the time limit) in a background thread;
``busy`` is true meanwhile, and the browser shows a spinner; a newer state
cancels the search for the one before.  anywidget is needed only here:
:func:`permgroup.explore.widget` imports this module when called.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import anywidget
import traitlets

from permgroup.drawing import picture
from permgroup.elements import Element, State
from permgroup.errors import InputError, InputTypeError
from permgroup.metric import Metric, metric_label, metric_moves
from permgroup.perm import act
from permgroup.puzzle import Puzzle
from permgroup.words import parse_word, word_names

#: seconds a search may take before the read-out gives up
TIME_LIMIT = 5.0

# --- reading a colouring ------------------------------------------------------

def element_of_colouring(puzzle: Puzzle, colours: Sequence) -> Element | None:
    """An element whose colouring is ``colours``, read piece by piece: each
    slot's colours (read in the piece's order) name the one piece showing them
    and how it is turned.  ``None`` when some colour tuple fits several
    pieces (colours repeat within a kind) or none.

    >>> p = Puzzle("bars", 4, {"A": (3, 2, 0, 1)}, solved="abcd", pieces={"bar": ((0, 1), (2, 3))})
    >>> element_of_colouring(p, act("abcd", p.generators["A"])).perm
    (3, 2, 0, 1)
    """
    solved = puzzle.solved or tuple(range(puzzle.degree))
    if len(colours) != puzzle.degree:
        return None
    pieces = [p for ps in puzzle.pieces.values() for p in ps]
    covered = {x for p in pieces for x in p}
    pieces += [(x,) for x in range(puzzle.degree) if x not in covered]
    seen: dict[tuple, list[tuple[int, int]]] = {}
    for k, piece in enumerate(pieces):
        home = tuple(solved[i] for i in piece)
        for t in range(len(piece)):
            seen.setdefault(home[t:] + home[:t], []).append((k, t))
    image = [0] * puzzle.degree
    used = set()
    for slot in pieces:
        found = seen.get(tuple(colours[i] for i in slot), [])
        if len(found) != 1 or found[0][0] in used:
            return None
        k, t = found[0]
        used.add(k)
        home = pieces[k]
        m = len(home)
        # the sticker of piece k read t places on shows at slot position u
        for u in range(m):
            image[home[(u + t) % m]] = slot[u]
    if sorted(image) != list(range(puzzle.degree)) or act(solved, image) != tuple(colours):
        return None
    return Element(puzzle, image)


# --- the widget ---------------------------------------------------------------

SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _cycle_type_text(e: Element) -> str:
    """``order``-style text: cycle lengths with their counts as powers, then
    the piece cycles of each kind.

    >>> from permgroup.formats import resolve
    >>> _cycle_type_text(Element.from_word(resolve("minicube").puzzle, "R U R' U'"))
    '1¹² 6² · corner: 2-cycle twisted 1, 2-cycle twisted 2'
    """
    parts = [f"{length}{str(count).translate(SUPERSCRIPTS)}"
             for length, count in e.cycle_type().items()]
    text = " ".join(parts)
    try:
        pieces = e.piece_cycle_type()
    except ValueError:  # the element does not respect the pieces
        return text
    shown = []
    for kind, cycles in pieces.items():
        items = [(f"{count}×" if count > 1 else "")
                 + (f"{length}-cycle" if length > 1 else "in place")
                 + (f" twisted {twist}" if twist else "")
                 for (length, twist), count in cycles.items()]
        if items:
            shown.append(f"{kind}: {', '.join(items)}")
    return text + (" · " + "; ".join(shown) if shown else "")


class PuzzleWidget(anywidget.AnyWidget):
    """A puzzle to turn, with live read-outs (see the module docstring).

    ``history`` (text in the puzzle's notation), ``state`` (the colouring:
    a string when every colour is one character), ``element`` and ``target``
    are readable and settable from Python; :meth:`move`, :meth:`undo` and
    :meth:`reset` do what the buttons do.  Read-outs (traits, ``-1`` and
    empty while ``busy`` or when unknown): ``distance``, ``solution``,
    ``target_distance``, ``target_solution``, their texts ``distance_text``
    and ``target_text``, ``element_text`` (order and cycle type), and
    ``message`` (what was wrong with the last request, or empty).
    """

    _esm = Path(__file__).with_name("widget.js")

    title = traitlets.Unicode("").tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)
    moves = traitlets.List(traitlets.Unicode()).tag(sync=True)
    key_moves = traitlets.Dict().tag(sync=True)
    history = traitlets.Unicode("").tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    busy = traitlets.Bool(False).tag(sync=True)
    distance = traitlets.Int(-1).tag(sync=True)
    distance_text = traitlets.Unicode("").tag(sync=True)
    solution = traitlets.List(traitlets.Unicode()).tag(sync=True)
    element_text = traitlets.Unicode("").tag(sync=True)
    target_history = traitlets.Unicode("").tag(sync=True)
    target_distance = traitlets.Int(-1).tag(sync=True)
    target_text = traitlets.Unicode("").tag(sync=True)
    target_solution = traitlets.List(traitlets.Unicode()).tag(sync=True)
    time_limit = traitlets.Float(TIME_LIMIT)

    def __init__(self, puzzle: Puzzle, metric: Metric = "qtm", *, start: Element | None = None,
                 time_limit: float = TIME_LIMIT, **kwargs):
        self._puzzle = puzzle
        self._metric = metric
        self._start = start or Element.identity(puzzle)
        self._names: tuple[str, ...] = ()
        self._target: Element | None = None
        self._job: threading.Thread | None = None
        self._generation = 0
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        names = list(metric_moves(puzzle, metric))
        super().__init__(title=f"{puzzle.name} · {metric_label(metric)}", moves=names,
                         key_moves=_key_map(names), time_limit=time_limit, **kwargs)
        self.on_msg(self._on_message)
        self._refresh()

    # --- Python interface ---------------------------------------------------------
    @property
    def puzzle(self) -> Puzzle:
        return self._puzzle

    @property
    def element(self) -> Element:
        """The current element: the start element, then the history's moves."""
        word = Element.from_word(self._puzzle, " ".join(self._names))
        return self._start * word

    @element.setter
    def element(self, value: Element) -> None:
        if value.puzzle.degree != self._puzzle.degree:
            raise InputError(f"an element of {value.puzzle.name}, not of {self._puzzle.name}")
        if value.letters is not None:
            self._start = Element.identity(self._puzzle)
            self._set_names(value.word)
        else:
            self._start = Element(self._puzzle, value.perm)
            self._set_names(())

    @property
    def state(self) -> str | tuple:
        """The current colouring (a string when every colour is one character)."""
        return _as_text(_colours(self.element))

    @state.setter
    def state(self, colours: Sequence) -> None:
        self.element = self._read_colouring(colours, "state")

    @property
    def target(self) -> Element | None:
        """The second state the read-outs measure against (``None``: none); set
        it to an element, a word from the solved state, or a colouring."""
        return self._target

    @target.setter
    def target(self, value: Element | str | Sequence | None) -> None:
        if value is None or (isinstance(value, str) and not value.strip()):
            self._target = None
            self.target_history = ""
        elif isinstance(value, Element):
            self._target = Element(self._puzzle, value.perm, value.letters)
            self.target_history = "" if value.letters is None else " ".join(value.word)
        elif isinstance(value, str) and (len(value) != self._puzzle.degree
                                         or any(c in value for c in " \t,'")):
            # a word unless it has a colour for each position and no blanks
            # ("UUUURRRR..." is a facelet string even though U and R are moves)
            self._target = Element.from_word(self._puzzle, value)
            self.target_history = " ".join(self._target.word)
        else:
            self._target = self._read_colouring(value, "target")
            self.target_history = ""
        self._refresh()

    def undo(self) -> None:
        """Take back the last move."""
        self._set_names(self._names[:-1])

    def reset(self) -> None:
        """Back to the start element with an empty history."""
        self._set_names(())

    def move(self, name: str) -> None:
        """Turn one move (any name the words accept: ``"R"``, ``"R2"``, ``"R'"``)."""
        names = word_names(self._puzzle, parse_word(self._puzzle, name))
        self._set_names(self._names + names)

    def wait(self, timeout: float | None = None) -> PuzzleWidget:
        """Wait for the read-outs being computed (for scripts and tests)."""
        job = self._job
        if job is not None:
            job.join(timeout)
        return self

    # --- messages from the browser ------------------------------------------------
    def _on_message(self, _widget, content: dict, _buffers) -> None:
        kind = content.get("type")
        try:
            if kind == "move":
                self.move(str(content["name"]))
            elif kind == "undo":
                self.undo()
            elif kind == "reset":
                self.reset()
            elif kind == "history":
                self.history = str(content.get("text", ""))
            elif kind == "target":
                self.target = str(content.get("text", ""))
            elif kind == "target_here":
                self.target = self.element
            else:
                self.message = f"unknown request {kind!r}"
        except (InputError, ValueError, KeyError) as error:
            self.message = str(error.args[0] if isinstance(error, KeyError) else error)

    # --- internals --------------------------------------------------------------
    @traitlets.validate("history")
    def _check_history(self, proposal) -> str:
        names = word_names(self._puzzle, parse_word(self._puzzle, proposal["value"]))
        return " ".join(names)

    @traitlets.observe("history")
    def _history_changed(self, change) -> None:
        names = tuple(change["new"].split())
        if names != self._names:
            self._names = names
            self._refresh()

    def _set_names(self, names: Sequence[str]) -> None:
        self._names = tuple(names)
        self.history = " ".join(self._names)
        self._refresh()

    def _read_colouring(self, colours: Sequence, what: str) -> Element:
        colours = tuple(colours)
        if len(colours) != self._puzzle.degree:
            raise InputError(f"{what}: {len(colours)} colours, {self._puzzle.name} has "
                             f"{self._puzzle.degree} positions")
        found = element_of_colouring(self._puzzle, colours)
        if found is None:
            # colours do not tell the pieces apart: find a word that reaches them
            from permgroup.errors import Stopped
            from permgroup.solution import solve

            try:
                word = solve(self._puzzle, State.solved(self._puzzle), colours,
                             metric=self._metric, time_limit=self.time_limit).word
            except (InputError, Stopped) as exc:
                raise InputError(f"{what}: no element of {self._puzzle.name} gives this "
                                 f"colouring ({exc})") from None
            # the start is the element, not the word found for it
            found = Element(self._puzzle, Element.from_word(self._puzzle, " ".join(word)).perm)
        return found

    def _refresh(self) -> None:
        """Redraw at once; start the read-outs that may take time in a thread."""
        e = self.element
        self.svg = picture(self._puzzle, _colours(e))
        self.element_text = f"order {e.order()} · cycle type {_cycle_type_text(e)}"
        self.message = ""
        with self._lock:
            self._generation += 1
            generation = self._generation
            self._cancel.set()  # the read-outs of the state before are not wanted now
            self._cancel = cancel = threading.Event()
        self.busy = True
        # read-outs of the previous state must not pass for this one's
        self.distance, self.solution = -1, []
        self.target_distance, self.target_solution = -1, []
        self.distance_text = "distance to solved: searching…"
        self.target_text = "distance to target: searching…" if self._target else ""
        job = threading.Thread(target=self._readouts,
                               args=(generation, e, self._target, cancel), daemon=True)
        self._job = job
        job.start()

    def _readouts(self, generation: int, e: Element, target: Element | None,
                  cancel: threading.Event) -> None:
        from permgroup.budget import Budget
        from permgroup.errors import Stopped, UnreachableError
        from permgroup.solution import solve
        from permgroup.tables.registry import by_colouring

        goals = [("distance", "solution", "distance_text", "distance to solved",
                  Element.identity(self._puzzle))]
        if target is not None:
            goals.append(("target_distance", "target_solution", "target_text",
                          "distance to target", target))
        results: dict = {"target_distance": -1, "target_solution": [], "target_text": ""}
        label = metric_label(self._metric)
        kind = " colouring" if by_colouring(self._puzzle) else ""
        try:
            for distance, solution, text, name, goal in goals:
                results[distance], results[solution] = -1, []
                # the time limit, or as soon as a newer state cancels it
                budget = Budget.of(self.time_limit, cancel=cancel)
                try:
                    # states, not elements: pieces that look alike may trade places
                    found = solve(self._puzzle, State(self._puzzle, _colours(e)),
                                  State(self._puzzle, _colours(goal)), metric=self._metric,
                                  optimal=True, budget=budget)
                except Stopped:
                    results[text] = f"{name}: no answer within {self.time_limit:g} s"
                    continue
                except UnreachableError:
                    results[text] = f"{name}: unreachable"
                    continue
                how = (f"from the {label}{kind} table" if found.method == "table" else
                       f"by {label} search{' on colourings' if kind else ''}")
                results[distance], results[solution] = len(found.word), list(found.word)
                results[text] = f"{name}: {len(found.word)} ({how})"
        except Exception as error:  # a read-out must never take the widget down
            results.update(distance=-1, solution=[], distance_text="distance to solved: ?",
                           message=f"read-out failed: {error}")
        with self._lock:
            if generation != self._generation:
                return  # a newer state has its own job
            for name, value in results.items():
                setattr(self, name, value)
            self.busy = False


def _colours(e: Element) -> tuple:
    """The colouring of an element; each position its own colour when the
    puzzle has no solved colouring."""
    return act(e.puzzle.solved or tuple(range(e.puzzle.degree)), e.perm)


def _as_text(colours: Sequence) -> str | tuple:
    if all(isinstance(c, str) and len(c) == 1 for c in colours):
        return "".join(colours)
    return tuple(colours)


def _key_map(names: Sequence[str]) -> dict[str, str]:
    """Keyboard keys for moves named by one letter: the letter turns the move,
    with shift its inverse (lower-case names the other way round).

    >>> _key_map(["R", "R'", "U", "U'", "row0"])
    {'r': 'R', 'R': "R'", 'u': 'U', 'U': "U'"}
    """
    keys = {}
    for name in names:
        if len(name) == 1 and name.isalpha() and name + "'" in names:
            keys[name.lower()], keys[name.upper()] = (
                (name, name + "'") if name.isupper() else (name + "'", name))
    return keys


def widget(puzzle_or_state: Puzzle | State | Element, metric: Metric = "qtm", **options
           ) -> PuzzleWidget:
    """A :class:`PuzzleWidget` for a puzzle (starting solved), a state or an element.

    >>> from permgroup.formats import resolve
    >>> widget(resolve("minicube").puzzle).history
    ''
    """
    if isinstance(puzzle_or_state, Puzzle):
        return PuzzleWidget(puzzle_or_state, metric, **options)
    if isinstance(puzzle_or_state, Element):
        w = PuzzleWidget(puzzle_or_state.puzzle, metric, **options)
        w.element = puzzle_or_state
        return w
    if isinstance(puzzle_or_state, State):
        w = PuzzleWidget(puzzle_or_state.puzzle, metric, **options)
        w.state = puzzle_or_state.colours
        return w
    raise InputTypeError(f"widget: expected a Puzzle, a State or an Element, got "
                         f"{type(puzzle_or_state).__name__}")


__all__ = ["PuzzleWidget", "widget", "picture", "element_of_colouring", "TIME_LIMIT"]
