"""The ``permgroup`` command line: explore the groups behind permutation puzzles.

* ``permgroup solve FORMAT [FILE]``: a contest input (stdin without FILE) in,
  the contest output out;
* ``permgroup table PUZZLE [--metric qtm|htm]``: build or load the distance
  table and print its distribution;
* ``permgroup order PUZZLE``: the order of the puzzle's group;
* ``permgroup group PUZZLE``: its stabilizer chain, and on request a
  stabilizer, the derived series, element orders, membership;
* ``permgroup optimal PUZZLE [FILE]``: one optimal solution per line of moves;
* ``permgroup word PUZZLE [FILE]``: one solving word per line of moves, optimal
  when an exact method answers in time.

PUZZLE is anything :func:`permgroup.formats.resolve` takes to a definition: a
name of the catalog (built-in puzzles, the library of definitions: ``skewb``,
``pyraminx``...), a family member (``lrx-11``, ``cube-4``), the path of a
``.tws``/``.def``/``.kpuzzle.json``/``.gap`` definition file, or
``PUZZLE_INFO.csv#TYPE``; ``--help`` of each command lists the names and
formats with one line each.  The puzzles and formats come from the catalog's
plugins (:mod:`permgroup.catalog`); the command line names none itself.

Bad input and bad arguments get one ``permgroup: error: ...`` line on stderr
and exit status 2.
"""
from __future__ import annotations

import argparse
import inspect
import os
import re
import sys
import warnings
from collections.abc import Callable

from permgroup.budget import parse_memory, parse_time_limit
from permgroup.errors import InputError, counted, did_you_mean
from permgroup.formats.text import read_text




def cmd_solve(args: argparse.Namespace) -> int:
    """``permgroup solve``: answer the contest input in ``args.file`` (stdin when
    it is ``None`` or ``"-"``) in ``args.format``, on stdout.

    >>> import os, tempfile
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> path = os.path.join(tempfile.mkdtemp(), "in.txt")
    >>> with open(path, "w") as f:  # a 4x4 board one shift from solved
    ...     _ = f.write("GRRR\\nBGGG\\nYBBB\\nRYYY\\n")
    >>> cmd_solve(argparse.Namespace(format="rubiksrevenge", file=path, max_depth=None))
    1
    0
    >>> cmd_solve(argparse.Namespace(format="rubiksrevenge", file=path, max_depth=3))
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: format rubiksrevenge takes no --max-depth (it takes no options)
    """
    from permgroup.catalog import format_module

    module = format_module(args.format)
    cores = os.cpu_count() or 1
    if (getattr(args, "jobs", None) or 0) > cores:  # more processes only cost memory
        warnings.warn(f"--jobs {args.jobs}: this machine has {counted(cores, 'core')}; "
                      f"using {cores}")
        args.jobs = cores
    accepted = inspect.signature(module.solve_text).parameters
    options = {}
    for option in SOLVE_OPTIONS:
        if getattr(args, option, None) is None:
            continue
        if option not in accepted:
            takes = [f"--{o.replace('_', '-')}" for o in SOLVE_OPTIONS if o in accepted]
            raise InputError(f"format {args.format} takes no --{option.replace('_', '-')} "
                             f"({'its options: ' + ', '.join(takes) if takes else 'it takes no options'})")
        options[option] = getattr(args, option)
    if "source" in accepted:
        options["source"] = args.file or "<stdin>"
    text = read_text(args.file)
    sys.stdout.write(module.solve_text(text, **options))
    return 0


#: the options of ``permgroup solve``, each passed to the formats that take it
SOLVE_OPTIONS = ("max_depth", "max_length", "info", "time_limit", "only", "jobs")


def cmd_table(args: argparse.Namespace) -> int:
    """``permgroup table``: build or load the distance table of ``args.puzzle``
    in ``args.metric`` and print its distribution, one ``depth<TAB>count`` line
    per depth (progress on stderr): the puzzle's own table when it brings one
    (a built-in's, up to rotation or a ball), else its God's-algorithm table
    (:func:`_definition_table`).  Unknown names are refused:

    >>> cmd_table(argparse.Namespace(puzzle="gigaminx", metric="qtm"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: unknown puzzle 'gigaminx'; choose from minicube, cube3, ..., ufo (permgroup table --help says what each is), a family (lrx-N, ...), or the path of a definition file (.tws, .def, .kpuzzle.json, .gap) or PUZZLE_INFO.csv#TYPE (a Santa 2023 type)
    >>> cmd_table(argparse.Namespace(puzzle="megaminx", metric="qtm"))
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: megaminx: up to 2.42e+69 positions, too many for a table (permgroup optimal searches instead)
    """
    from permgroup.formats import resolve
    from permgroup.progress import Bar, print_loaded

    definition = resolve(args.puzzle)
    description = f"{args.puzzle} ({args.metric})"
    tight = [getattr(args, option, None) for option in ("packed", "memory", "dask")]
    for option in ("workers", "scheduler"):
        if getattr(args, option, None) is not None and not getattr(args, "dask", False):
            raise InputError(f"--{option} is for a build on Dask: add --dask")
    own = definition.hooks.get("table")
    if args.metric == "gens" and (own is not None or any(tight)):
        raise InputError("--metric gens (the generators alone, a directed graph) is for "
                         "definition files, the library and families, in one-byte tables")
    if any(tight) and definition.partial is not None:
        raise InputError(f"{args.puzzle}'s moves depend on the position: its own table only "
                         "(without --packed, --memory or --dask)")
    with Bar(description) as bar:
        if any(tight):
            from permgroup.tables.registry import load_or_build, rotated

            if not rotated(definition):
                _check_table_size(definition)
            table = load_or_build(definition, args.metric,
                                  "2bit" if tight[0] and not any(tight[1:]) else None,
                                  memory=args.memory, dask=args.dask, scheduler=args.scheduler,
                                  progress=bar,
                                  **({"workers": args.workers} if args.workers else {}))
        elif own is not None:
            table = own(args.metric, progress=bar)
        else:
            table = _definition_table(definition, args.metric, bar)
    print_loaded(description, bar)
    counts = table.distribution()
    for depth, count in enumerate(counts):
        print(f"{depth}\t{count}")
    radius = getattr(table, "radius", None)
    if radius is not None:  # a ball: the group is too large for a whole table
        print(f"# total {sum(counts)} within {radius} moves (the whole group does not fit "
              "in a table)")
    else:
        print(f"# total {sum(counts)}, diameter {len(counts) - 1}")
    return 0


def cmd_order(args: argparse.Namespace) -> int:
    """``permgroup order``: the order of the puzzle's group (the structure's
    order, :func:`permgroup.explore.structure`, checked against the stabilizer
    chain's, :func:`permgroup.explore.chain`), what it counts, the order up to
    whole-puzzle symmetry when the symmetries lie in the group, the structure,
    and the chain orbit by orbit.

    >>> cmd_order(argparse.Namespace(puzzle="minicube"))  # doctest: +ELLIPSIS
    order: 88179840
    order up to whole-puzzle symmetry: 3674160 (symmetry group of order 24)
    structure: C3^7 ... S8
    chain: 1 orbit of pieces; the order is proven (...)
      1 ... order 88,179,840 on 8 pieces of 3 points: the elements that move that orbit alone
      nothing ties the orbits together: the group is the direct product of those subgroups
    0
    >>> cmd_order(argparse.Namespace(puzzle="rubiksrevenge"))  # doctest: +ELLIPSIS
    order: 20922789888000
    states are colourings (pieces of one colour look alike): at most 63,063,000 of them, fewer than the order; permgroup table counts the reachable ones
    structure: S16
    chain: 1 orbit of pieces; ...
      1 ... S16 on 16 points: the elements that move that orbit alone
    ...
    0
    """
    from permgroup.formats import resolve
    from permgroup.optimal import position_bound
    from permgroup.orbit_chain import puzzle_chain
    from permgroup.progress import Bar, working
    from permgroup.structure import structure

    definition = resolve(args.puzzle)
    puzzle = definition.puzzle
    with working(f"{args.puzzle}: the group's structure and order"):
        found = structure(puzzle)
        chain = puzzle_chain(puzzle)
    order = found.order
    if chain.proven and chain.order != order:  # two algorithms: a bug, never an answer
        raise RuntimeError(f"{args.puzzle}: the structure's order {order} is not the "
                           f"stabilizer chain's {chain.order}")
    print(f"order: {_decimal(order)}", flush=True)
    if definition.partial is not None:
        print(f"  (the group of the {len(puzzle.generators)} moves as permutations of "
              f"{puzzle.degree} positions, ignoring the conditions under which a move may be "
              "made: an upper bound's group, not a count of positions)")
        if "table" in definition.hooks:
            with Bar(f"{args.puzzle}: positions reachable from the start") as bar:
                reached = sum(definition.hooks["table"]("qtm", progress=bar).distribution())
            print(f"reachable positions: {reached} (breadth-first search from the start)")
    elif any(len(set(definition.solved[o.name].pieces)) < o.size for o in definition.orbits):
        print(_colourings_line("pieces of one colour look alike", position_bound(definition),
                               order))
    if puzzle.symmetries:
        import numpy as np

        symmetry = puzzle.symmetry_group()
        # only symmetries the moves can make merge elements into classes
        if chain.contains(np.array([g.array_form for g in symmetry.generators])).all():
            print(f"order up to whole-puzzle symmetry: {order // symmetry.order()} "
                  f"(symmetry group of order {symmetry.order()})")
        else:
            print("whole-puzzle symmetries are not in the group: each state is one element")
    utf8 = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "") == "utf8"
    print(f"structure: {found.description if utf8 else found.ascii()}")
    lines = chain.lines()
    print(f"chain: {lines[0]}")
    for line in lines[1:]:
        print(line if utf8 else line.replace("×", "x"))
    return 0


def cmd_group(args: argparse.Namespace) -> int:
    """``permgroup group``: the order and the stabilizer chain orbit by orbit
    (:func:`permgroup.explore.chain`), then what was asked for.

    >>> cmd_group(argparse.Namespace(puzzle="pyraminx-notips", stabilizer=[0], setwise=False,
    ...                              derived=True, element_orders=None, contains=None))
    ... # doctest: +ELLIPSIS
    order: 933120
    chain: 5 orbits of pieces; the order is proven (...)
      4 × C3 on 1 piece of 3 points: the elements that move that orbit alone
      1 × order 11,520 on 6 pieces of 2 points: the elements that move that orbit alone
      nothing ties the orbits together: the group is the direct product of those subgroups
    stabilizer of point 0: order 311040 (index 3)
    derived series: 933120 > 11520 (not solvable)
    0
    """
    import numpy as np

    from permgroup import explore
    from permgroup.formats import resolve
    from permgroup.progress import working

    puzzle = resolve(args.puzzle).puzzle
    # the input checked before any work or output
    bad = [p for p in args.stabilizer or () if not 0 <= p < puzzle.degree]
    if bad:
        raise InputError(f"--stabilizer {bad[0]}: {puzzle.name} has points 0 to "
                         f"{puzzle.degree - 1}")
    perms = []
    if args.contains:
        for number, line in enumerate(read_text(args.contains).splitlines(), 1):
            if not line.strip():
                continue
            try:
                perm = np.array([int(x) for x in line.replace(",", " ").split()])
            except ValueError:
                raise InputError(f"{args.contains}, line {number}: expected whole numbers (a "
                                 "permutation in array form)") from None
            if sorted(perm.tolist()) != list(range(puzzle.degree)):
                raise InputError(f"{args.contains}, line {number}: not a permutation of "
                                 f"0..{puzzle.degree - 1}")
            perms.append((number, perm))
    with working(f"{args.puzzle}: the group's stabilizer chain"):
        chain = explore.chain(puzzle)
    print(f"order: {_decimal(chain.order)}")
    lines = chain.lines()
    print(f"chain: {lines[0]}", *lines[1:], sep="\n")
    if args.stabilizer:
        sub = explore.stabilizer(puzzle, args.stabilizer, setwise=args.setwise)
        what = ("the set of points" if args.setwise else
                "point" if len(args.stabilizer) == 1 else "points")
        size = explore.order(sub)
        print(f"stabilizer of {what} {' '.join(map(str, args.stabilizer))}: order "
              f"{_decimal(size)} (index {_decimal(chain.order // size)})")
    if args.derived:
        series = explore.derived_series(puzzle)
        solvable = series[-1] == 1
        print(f"derived series: {' > '.join(map(_decimal, series))} "
              f"({'solvable' if solvable else 'not solvable'})")
    if args.element_orders:
        print(explore.element_orders(puzzle, args.element_orders).text())
    for number, perm in perms:
        why = chain.why_not(perm)
        print(f"line {number}: " + ("in the group" if why is None else
                                    f"not in the group: {why}"))
    return 0


def _decimal(n: int) -> str:
    """``n`` in decimal, however many digits, quickly: Python's own
    conversion takes time quadratic in the digits (12 s for 100000!'s
    456,574), so halves are converted apart and joined by the decimal
    module's fast multiplication.

    >>> text = _decimal(2 ** 50_000)
    >>> len(text), text[:6], int(text[-8:]) == pow(2, 50_000, 10 ** 8)
    (15052, '316069', True)
    """
    if n.bit_length() < 4096:  # within Python's 4,300-digit limit
        return str(n)
    import decimal

    context = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX,
                              Emin=decimal.MIN_EMIN, traps=[decimal.Inexact])
    powers: dict[int, decimal.Decimal] = {}

    def convert(m: int, bits: int) -> decimal.Decimal:
        if bits <= 4096:
            return decimal.Decimal(m)
        half = bits // 2
        high = m >> half
        if half not in powers:
            powers[half] = decimal.Decimal(2) ** half
        return convert(m - (high << half), half) + convert(high, bits - half) * powers[half]

    with decimal.localcontext(context):
        return format(convert(n, n.bit_length()), "f")


def _colourings_line(why: str, bound: int, order: int) -> str:
    """What ``order`` says of states that are colourings: there are at most
    ``bound`` arrangements, and at most the order.

    >>> _colourings_line("stickers share colours", 192, 48)
    'states are colourings (stickers share colours): at most 48 of them (the order), maybe fewer; permgroup table counts the reachable ones'
    """
    most = (f"at most {bound:,} of them, fewer than the order" if bound < order
            else f"at most {order:,} of them (the order), maybe fewer")
    return f"states are colourings ({why}): {most}; permgroup table counts the reachable ones"


def _check_table_size(definition) -> None:
    """Refuse, clearly, a puzzle whose positions cannot fit in any table."""
    from permgroup.budget import approx
    from permgroup.optimal import MAX_TABLE, position_bound

    bound = position_bound(definition)
    if bound > MAX_TABLE:
        raise InputError(f"{definition.name}: up to {approx(bound)} positions, too many for a table "
                         "(permgroup optimal searches instead)")


def _definition_table(definition, metric: str, progress):
    """The God's-algorithm table of a definition (cached): over its states up to
    rotation when it defines rotations its moves can make, else over its
    positions."""
    from permgroup.tables.registry import load_or_build, rotated

    if not rotated(definition):
        _check_table_size(definition)
    try:
        return load_or_build(definition, metric, progress=progress)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def cmd_optimal(args: argparse.Namespace) -> int:
    """``permgroup optimal``: for each line of moves in ``args.file`` (stdin without
    it), one optimal solution of the position those moves make from solved (an
    empty line for a solved position), or a ``# line N: ...`` line saying why
    there is none within ``args.time_limit`` seconds and ``args.memory``: the
    one solve path (:func:`permgroup.solve`), its exact methods only.

    >>> import os, tempfile
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> path = os.path.join(tempfile.mkdtemp(), "moves.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("URF URB\\n\\nURF'\\n")
    >>> cmd_optimal(argparse.Namespace(puzzle="skewb", file=path, metric="qtm"))
    URB' URF'
    <BLANKLINE>
    URF
    0
    """
    from permgroup.optimal import TIME_LIMIT, answer_line, optimal_answers

    time_limit = getattr(args, "time_limit", None) or TIME_LIMIT
    answers: list = []
    found = optimal_answers(args.puzzle, read_text(args.file).splitlines(), args.metric,
                            time_limit=time_limit, memory=getattr(args, "memory", None))
    try:
        for number, answer in enumerate(found, 1):
            answers.append(answer)
            sys.stdout.write(answer_line(answer, number))
            sys.stdout.flush()
    except InputError as exc:
        exc.answered = ""  # the answers before the bad line are written already
        raise
    unanswered = [n for n, a in enumerate(answers, 1) if not isinstance(a, list)]
    if unanswered:
        which = ("line " if len(unanswered) == 1 else "lines ") + ", ".join(map(str, unanswered))
        print(f"# {counted(len(answers), 'line')}: {len(answers) - len(unanswered)} answered, "
              f"{len(unanswered)} not ({which}); "
              "permgroup word gives a solving word that need not be optimal")
    return 0


def cmd_word(args: argparse.Namespace) -> int:
    """``permgroup word``: for each line of ``args.file`` (stdin without it), a
    word solving it within ``args.time_limit`` seconds a line: the one solve
    path (:func:`permgroup.solve`), optimal when an exact method answers in
    time, every word checked, never longer than the line's moves reversed.  A
    line is moves (separated by blanks or ``.``, as Santa 2023 writes them),
    or with ``args.states`` a position, ``START`` or ``START,GOAL``, its
    stickers separated by ``;`` as in Santa's files.  A last ``#`` line says
    which lines are proven optimal.

    >>> import os, tempfile
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> path = os.path.join(tempfile.mkdtemp(), "moves.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("URF URB\\n\\n")
    >>> cmd_word(argparse.Namespace(puzzle="skewb", file=path, metric="qtm", time_limit=10.0))
    URB' URF'
    <BLANKLINE>
    # 2 lines; proven optimal: all
    0
    >>> with open(path, "w") as f:
    ...     _ = f.write("0;1;2;3;4;5;6;7,1;2;3;4;5;6;7;0\\n")
    >>> cmd_word(argparse.Namespace(puzzle="lrx-8", file=path, metric="qtm", time_limit=10.0,
    ...                             states=True))
    L
    # 1 line; proven optimal: all
    0
    """
    from permgroup.solution import door, solve, solve_many

    d = door(args.puzzle)
    states = getattr(args, "states", False)
    proven, count = [], 0
    lines = read_text(args.file).splitlines()
    options = dict(metric=args.metric, time_limit=args.time_limit,
                   memory=getattr(args, "memory", None))

    def each():  # moves to solved: answered together where a table allows
        if not states:
            yield from solve_many(d, lines, **options)
            return
        for line in lines:
            start, _, goal = line.partition(",")
            try:
                yield solve(d, start.strip(), goal.strip() or None, **options)
            except InputError as exc:
                yield exc

    for number, found in enumerate(each(), 1):
        if isinstance(found, Exception):  # solve_many gives Stopped only with optimal=True
            raise InputError(f"line {number}: {found}") from None
        print(" ".join(found.word), flush=True)
        count += 1
        if found.optimal:
            proven.append(number)
    if len(proven) == count:
        which = "all"
    else:
        which = ", ".join(map(str, proven)) if proven else "none"
        which = f"lines {which}" if proven else which
    print(f"# {counted(count, 'line')}; proven optimal: {which}")
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse's parser with the project's error line (``permgroup: error: ...``,
    exit status 2, whichever command it is) and an epilog written only when
    help is shown (listing formats and puzzles reads files)."""

    def __init__(self, *args, epilog_of=None, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)
        self.epilog_of = epilog_of

    def parse_known_args(self, args=None, namespace=None):
        # a command's options may come before its optional FILE (`word cube-2
        # --states FILE`): argparse alone gives that FILE up once an option is
        # read before it; the top parser, with its commands, cannot intermix
        if self._subparsers is None and not getattr(self, "_intermixing", False):
            self._intermixing = True
            try:
                return self.parse_known_intermixed_args(args, namespace)
            finally:
                self._intermixing = False
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        if self.epilog_of is not None:
            self.epilog, self.epilog_of = self.epilog_of(), None
        return super().format_help()

    def error(self, message: str):
        # "argument --memory: --memory 'x': ..." (the message names its option) once
        message = re.sub(r"^argument (--[\w-]+): \1 ", r"argument \1 ", message)
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if choice:  # a mistyped format, metric or command
            hint = did_you_mean(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
            message = message.replace(f"'{choice.group(1)}'", f"'{choice.group(1)}'{hint}", 1)
        self.print_usage(sys.stderr)
        self.exit(2, f"permgroup: error: {message}\n")


def _listing(title: str, lines: dict[str, str]) -> str:
    width = max(map(len, lines)) + 2
    return f"{title}:\n" + "".join(f"  {name:<{width}}{line}\n" for name, line in lines.items())


def _format_listing() -> str:
    from permgroup.catalog import format_names

    return (_listing("formats", format_names())
            + "\nexamples:\n"
              "  permgroup solve uva11007 examples/uva11007.txt\n"
              "  permgroup solve zoj2477 examples/zoj2477.txt --max-depth 14\n"
              "  permgroup solve cube3-facelets examples/cube3-facelets.txt --time-limit 0.1\n"
              "\nSample inputs for every format are in the repository's examples/ folder.")


def _puzzle_listing(*examples: str) -> Callable[[], str]:
    def listing() -> str:
        from permgroup.catalog import FILE_HINT, puzzle_names

        return (_listing("PUZZLE names", puzzle_names()) + f"  ({FILE_HINT})\n"
                + "\nexamples:\n" + "".join(f"  {e}\n" for e in examples))
    return listing


EXAMPLES = """examples:
  permgroup table minicube             the 2x2x2's states at each distance (qtm)
  permgroup order cube3                order: 43252003274489856000
  echo "R U R' U'" | permgroup optimal minicube
  permgroup solve uva11007 examples/uva11007.txt
  permgroup COMMAND --help             formats, puzzle names and options of a command
"""


def _argument_type(parse: Callable[[str], object], name: str) -> Callable[[str], object]:
    """An argparse ``type=``: ``parse`` with its :class:`InputError` as argparse's
    own error (``permgroup: error: argument --jobs: ...``, exit status 2)."""
    def checked(text: str) -> object:
        try:
            return parse(text)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    checked.__name__ = name
    return checked


_seconds = _argument_type(parse_time_limit, "seconds")
_size = _argument_type(parse_memory, "size")


def _at_least(least: int) -> Callable[[str], object]:
    """An argparse ``type=``: a whole number of at least ``least``.

    >>> _at_least(1)("3")
    3
    >>> _at_least(1)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be at least 1, got 0
    """
    def whole(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise InputError(f"expected a whole number, got {text!r}") from None
        if n < least:
            raise InputError(f"must be at least {least}, got {n}")
        return n
    return _argument_type(whole, "number")


PUZZLE_HELP = ("a puzzle name (listed below), the path of a definition file, or "
               "PUZZLE_INFO.csv#TYPE")
FILE_HELP = "the input file (stdin when left out or -)"


def _lines_command(sub, name: str, summary: str, description: str, *examples: str
                   ) -> argparse.ArgumentParser:
    """A command that answers lines of moves on a PUZZLE: its parser with the
    PUZZLE, FILE and --metric arguments."""
    command = sub.add_parser(name, help=summary, description=description,
                             epilog_of=_puzzle_listing(*examples))
    command.add_argument("puzzle", metavar="PUZZLE", help=PUZZLE_HELP)
    command.add_argument("file", nargs="?", help=FILE_HELP)
    command.add_argument("--metric", default="qtm", choices=["qtm", "htm"],
                         help="how moves are counted (default qtm)")
    return command


def parser() -> argparse.ArgumentParser:
    """The argument parser; each subcommand sets ``run`` to its function.

    >>> args = parser().parse_args(["table", "cube3"])
    >>> args.puzzle, args.metric, args.run is cmd_table
    ('cube3', 'qtm', True)
    """
    from permgroup import __version__
    from permgroup.catalog import FormatNames

    p = _Parser(prog="permgroup", description=__doc__.split("\n\n")[0].split(": ", 1)[1].capitalize(),
                epilog=EXAMPLES)
    p.add_argument("--version", action="version", version=f"permgroup {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    s = sub.add_parser("solve", help="answer a contest input (FORMAT: see solve --help)",
                       description="Answer a contest input in FORMAT: the contest's exact "
                                   "output on stdout.", epilog_of=_format_listing)
    s.add_argument("format", choices=FormatNames(), metavar="FORMAT",
                   help="the contest format (listed below)")
    s.add_argument("file", nargs="?", help=FILE_HELP)
    s.add_argument("--max-depth", type=_at_least(0), metavar="N",
                   help="the deepest answer searched (zoj2477: default 5; poj3131: default 30)")
    s.add_argument("--max-length", type=_at_least(0), metavar="N",
                   help="stop at the first solution this short (cube3-facelets)")
    s.add_argument("--info", metavar="PUZZLE_INFO.csv", help="the moves of each type (santa2023)")
    s.add_argument("--time-limit", type=_seconds, metavar="S",
                   help="seconds per case: per row (santa2023; default 60, and 60 for every "
                        "1,500 positions of a row past 1,500), per case "
                        "(zoj2477), per cube (cube3-facelets; default 1)")
    s.add_argument("--only", nargs="+", metavar="TYPE|ID",
                   help="solve only the rows of these types or ids (santa2023)")
    s.add_argument("--jobs", type=_at_least(1), metavar="N", help="processes (santa2023; default 1)")
    s.set_defaults(run=cmd_solve)
    t = sub.add_parser("table", help="build or load a distance table; print its distribution",
                       description="Build (or load from the cache) the distance table of "
                                   "PUZZLE and print one depth<TAB>count line per depth, "
                                   "then '# total N, diameter D'.",
                       epilog_of=_puzzle_listing("permgroup table minicube --metric htm",
                                                 "permgroup table skewb",
                                                 "permgroup table my-puzzle.tws"))
    t.add_argument("puzzle", metavar="PUZZLE", help=PUZZLE_HELP)
    t.add_argument("--metric", default="qtm", choices=["qtm", "htm", "gens"],
                   help="qtm: every move and its inverse counts one; htm: every power "
                        "counts one; gens: the generators alone (a directed graph's "
                        "growth: definition files, the library and families) (default qtm)")
    t.add_argument("--packed", action="store_true", help="2 bits per state (depth mod 3)")
    t.add_argument("--memory", type=_size, metavar="SIZE",
                   help="build out of core in about SIZE of memory (e.g. 4GB)")
    t.add_argument("--dask", action="store_true", help="build on a Dask cluster")
    t.add_argument("--workers", type=_at_least(1), metavar="N",
                   help="local Dask workers (with --dask; default 2)")
    t.add_argument("--scheduler", metavar="ADDRESS",
                   help="an existing Dask scheduler (with --dask)")
    t.set_defaults(run=cmd_table)
    o = sub.add_parser("order", help="print the order of a puzzle's group",
                       description="The order of the group PUZZLE's moves generate (proven "
                                   "from its structure, checked against its stabilizer "
                                   "chain), what it counts, and its structure.",
                       epilog_of=_puzzle_listing("permgroup order cube3",
                                                 "permgroup order cubic-eight"))
    o.add_argument("puzzle", metavar="PUZZLE", help=PUZZLE_HELP)
    o.set_defaults(run=cmd_order)
    g = sub.add_parser("group", help="the group's stabilizer chain, stabilizers, derived "
                                     "series, element orders, membership",
                       description="The order of PUZZLE's group and its stabilizer chain "
                                   "orbit by orbit; and, when asked, a stabilizer, the derived "
                                   "series, the element orders (estimated) and whether "
                                   "permutations are in the group.",
                       epilog_of=_puzzle_listing("permgroup group cube3 --derived",
                                                 "permgroup group megaminx --element-orders 1000",
                                                 "permgroup group cube3 --stabilizer 0 1 2"))
    g.add_argument("puzzle", metavar="PUZZLE", help=PUZZLE_HELP)
    g.add_argument("--stabilizer", nargs="+", type=int, metavar="POINT",
                   help="the subgroup fixing these points (0-based stickers)")
    g.add_argument("--setwise", action="store_true",
                   help="with --stabilizer: mapping the set of points onto itself")
    g.add_argument("--derived", action="store_true",
                   help="the derived series and whether the group is solvable")
    g.add_argument("--element-orders", type=int, metavar="N",
                   help="the element orders' shares, estimated from N random elements")
    g.add_argument("--contains", metavar="FILE",
                   help="a permutation a line (array form, 0-based): in the group, or why not")
    g.set_defaults(run=cmd_group)
    op = _lines_command(sub, "optimal", "optimal solutions of the positions that lines of "
                                        "moves make",
                        "For each line of moves (alg notation: R U2 R', [R, U]), one optimal "
                        "solution of the position the line makes from solved; an empty line "
                        "for a solved position.",
                        "echo \"R U R' U'\" | permgroup optimal minicube",
                        "permgroup optimal skewb moves.txt --metric htm")
    op.add_argument("--time-limit", type=_seconds, default=60.0, metavar="S",
                    help="seconds of search per line (default 60); a line not answered in "
                         "time gets a '# line N: ...' line saying why")
    op.add_argument("--memory", type=_size, metavar="SIZE",
                    help="memory a search may take (default 2GB), e.g. 500MB")
    op.set_defaults(run=cmd_optimal)
    w = _lines_command(sub, "word", "a solving word for each line of moves or position "
                                    "(optimal when an exact method answers in time)",
                       "For each line of moves, a word that solves the position it makes, "
                       "checked, never longer than the line's moves reversed; optimal when an "
                       "exact method answers in time.  With --states a line is a position, "
                       "START or START,GOAL, its stickers separated by ';' (as in Santa 2023's "
                       "files), so that this is the distance between any two positions.  A "
                       "last '#' line names the lines proven optimal.",
                       "echo \"R U R' U'\" | permgroup word cube3",
                       "permgroup word megaminx moves.txt --time-limit 5",
                       "echo \"A;B;C;D,B;C;D;A\" | permgroup word 'puzzle_info.csv#TYPE' --states")
    w.add_argument("--time-limit", type=_seconds, default=10.0, metavar="S",
                   help="seconds per line (default 10)")
    w.add_argument("--memory", type=_size, metavar="SIZE",
                   help="memory a search may take (default: half the free memory, at most "
                        "2GB), e.g. 500MB")
    w.add_argument("--states", action="store_true",
                   help="lines are positions, START or START,GOAL (stickers separated by ';'), "
                        "not moves")
    w.set_defaults(run=cmd_word)
    c = sub.add_parser("cache", help="list the cached tables, or clear them",
                       description="List the tables in the cache folder ($PERMGROUP_CACHE, "
                                   "else ~/.cache/permgroup): puzzle, metric, form, size, "
                                   "date; or remove them.",
                       epilog="examples:\n  permgroup cache\n  permgroup cache clear minicube"
                              "\n  permgroup cache clear          (everything)\n")
    c.add_argument("action", nargs="?", choices=["list", "clear"], default="list",
                   help="list (the default) or clear")
    c.add_argument("puzzles", nargs="*", metavar="PUZZLE",
                   help="clear only these puzzles' tables (a name as the list shows it, or "
                        "a PUZZLE name)")
    c.set_defaults(run=cmd_cache)
    return p


def cmd_cache(args: argparse.Namespace) -> int:
    """``permgroup cache``: list the cached tables (puzzle, metric, form, size,
    date), or with ``clear`` remove them (those of the PUZZLEs named, else all).

    >>> import os, tempfile
    >>> os.environ["PERMGROUP_CACHE"] = tempfile.mkdtemp()
    >>> cmd_cache(argparse.Namespace(action="list", puzzles=[]))  # doctest: +ELLIPSIS
    # the cache folder .../tmp... is empty
    0
    """
    import datetime

    from permgroup.cache import cache_dir, cache_entries, clear_cache, size_text

    folder = cache_dir()
    if args.action == "clear":
        names = [n for p in args.puzzles for n in _cache_names(p)]
        removed = clear_cache(names)
        if args.puzzles and not removed:
            print(f"# no cached table of {', '.join(args.puzzles)} in {folder}")
        else:
            print(f"# removed {counted(len(removed), 'table')}, "
                  f"{size_text(sum(e.size for e in removed))}, from {folder}")
        return 0
    entries = cache_entries(folder)
    if not entries:
        print(f"# the cache folder {folder} is empty")
        return 0
    rows = [("puzzle", "metric", "form", "size", "date")]
    for e in entries:
        date = datetime.datetime.fromtimestamp(e.date).strftime("%Y-%m-%d %H:%M")
        rows.append((e.puzzle, e.metric or "-", e.form, size_text(e.size), date))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:
        print("  ".join(c.rjust(w) if i == 3 else c.ljust(w)
                        for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    print(f"# {counted(len(entries), 'table')}, {size_text(sum(e.size for e in entries))} in {folder}")
    return 0


def _cache_names(name: str) -> list[str]:
    """The names the cache files of a PUZZLE argument carry: the name itself
    (as ``permgroup cache`` lists it) and its puzzle's name when it resolves."""
    from permgroup.cache import label_of
    from permgroup.formats import resolve

    names = [name]
    try:
        definition = resolve(name)
    except InputError:
        return names
    # a table of the definition's positions, or of its sticker view's elements
    return list(dict.fromkeys([*names, label_of(definition.name),
                               label_of(definition.puzzle.name)]))


def _print_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings on the command line: one line, no source path or code line."""
    print(f"permgroup: warning: {message}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the command line (``sys.argv[1:]`` without ``argv``); the exit status.

    >>> main(["order", "minicube"])  # doctest: +ELLIPSIS
    order: 88179840
    order up to whole-puzzle symmetry: 3674160 (symmetry group of order 24)
    structure: C3^7 ... S8
    chain: 1 orbit of pieces; the order is proven (...)
    ...
    0
    >>> main(["solve", "uva11007", "/nonexistent/input.txt"])  # message on stderr
    2
    """
    args = parser().parse_args(argv)
    digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # an order has any number of digits (S_2000's: 5,736)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _print_warning
            return args.run(args)
    except InputError as exc:
        sys.stdout.write(exc.answered)
        sys.stdout.flush()
        print(f"permgroup: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover
        return 0
    except KeyboardInterrupt as exc:  # Ctrl-C: what was answered, then one line
        sys.stdout.write(getattr(exc, "answered", ""))
        sys.stdout.flush()
        print(f"permgroup: interrupted{f': {exc}' if str(exc) else ''}", file=sys.stderr)
        return 130
    finally:
        sys.set_int_max_str_digits(digits)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
