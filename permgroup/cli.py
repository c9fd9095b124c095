"""The ``permgroup`` command line.

* ``permgroup solve FORMAT [FILE]``: a contest input (stdin without FILE) in,
  the contest output out;
* ``permgroup table PUZZLE [--metric qtm|htm]``: build or load the distance
  table and print its distribution;
* ``permgroup order PUZZLE``: the order of the puzzle's group.

Bad input gets one message on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from types import ModuleType

from permgroup.errors import InputError


def _module(registry: dict[str, str], name: str, what: str) -> ModuleType:
    available = {k: v for k, v in registry.items() if importlib.util.find_spec(v) is not None}
    if name not in available:
        raise SystemExit(f"permgroup: unknown {what} {name!r}; choose from {', '.join(available)}")
    return importlib.import_module(available[name])


def _read_input(path: str | None) -> str:
    if path is None or path == "-":
        return sys.stdin.buffer.read().decode("utf-8", errors="replace")
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


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
    SystemExit: permgroup: format rubiksrevenge takes no --max-depth
    """
    from puzzles.formats import FORMATS

    module = _module(FORMATS, args.format, "format")
    options = {}
    if args.max_depth is not None:
        options["max_depth"] = args.max_depth
    text = _read_input(args.file)
    try:
        output = module.solve_text(text, **options)
    except TypeError as exc:
        if "max_depth" in str(exc):
            raise SystemExit(f"permgroup: format {args.format} takes no --max-depth") from None
        raise
    sys.stdout.write(output)
    return 0


def cmd_table(args: argparse.Namespace) -> int:
    """``permgroup table``: build or load the distance table of ``args.puzzle``
    in ``args.metric`` and print its distribution, one ``depth<TAB>count`` line
    per depth (progress on stderr).  Names are checked against
    :data:`puzzles.PUZZLES` first:

    >>> cmd_table(argparse.Namespace(puzzle="megaminx", metric="qtm"))
    Traceback (most recent call last):
    ...
    SystemExit: permgroup: unknown puzzle 'megaminx'; choose from minicube, cube3, rubiksrevenge, torus, cubic-eight, poj3131
    """
    from permgroup.table import print_progress
    from puzzles import PUZZLES

    module = _module(PUZZLES, args.puzzle, "puzzle")
    print(f"{args.puzzle} ({args.metric}):", file=sys.stderr)
    tight = [getattr(args, option, None) for option in ("packed", "memory", "dask")]
    if any(tight):
        from permgroup.table_space import build_tight_table

        table = build_tight_table(module.PUZZLE, args.metric, memory=args.memory,
                                  dask=args.dask, workers=args.workers,
                                  scheduler=args.scheduler, progress=print_progress())
    else:
        table = module.table(args.metric, progress=print_progress())
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
    """``permgroup order``: the order of the puzzle's group (sympy), and the
    order up to whole-puzzle symmetry when the symmetries lie in the group.

    >>> cmd_order(argparse.Namespace(puzzle="minicube"))
    order: 88179840
    order up to whole-puzzle symmetry: 3674160 (symmetry group of order 24)
    0
    """
    from puzzles import PUZZLES

    module = _module(PUZZLES, args.puzzle, "puzzle")
    puzzle = module.PUZZLE
    group = puzzle.group()
    order = group.order()
    print(f"order: {order}")
    if puzzle.symmetries:
        symmetry = puzzle.symmetry_group()
        # only symmetries the moves can make merge elements into classes
        if all(group.contains(g) for g in symmetry.generators):
            print(f"order up to whole-puzzle symmetry: {order // symmetry.order()} "
                  f"(symmetry group of order {symmetry.order()})")
        else:
            print("whole-puzzle symmetries are not in the group: each state is one element")
    return 0


def parser() -> argparse.ArgumentParser:
    """The argument parser; each subcommand sets ``run`` to its function.

    >>> args = parser().parse_args(["table", "cube3"])
    >>> args.puzzle, args.metric, args.run is cmd_table
    ('cube3', 'qtm', True)
    """
    p = argparse.ArgumentParser(prog="permgroup", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="answer a contest input")
    s.add_argument("format")
    s.add_argument("file", nargs="?")
    s.add_argument("--max-depth", type=int, default=None)
    s.set_defaults(run=cmd_solve)
    t = sub.add_parser("table", help="build or load a distance table; print its distribution")
    t.add_argument("puzzle")
    t.add_argument("--metric", default="qtm")
    t.add_argument("--packed", action="store_true", help="2 bits per state (depth mod 3)")
    t.add_argument("--memory", metavar="SIZE",
                   help="build out of core in about SIZE of memory (e.g. 4GB)")
    t.add_argument("--dask", action="store_true", help="build on a Dask cluster")
    t.add_argument("--workers", type=int, default=2, help="local Dask workers (default 2)")
    t.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask scheduler")
    t.set_defaults(run=cmd_table)
    o = sub.add_parser("order", help="print the order of a puzzle's group")
    o.add_argument("puzzle")
    o.set_defaults(run=cmd_order)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command line (``sys.argv[1:]`` without ``argv``); the exit status.

    >>> main(["order", "minicube"])
    order: 88179840
    order up to whole-puzzle symmetry: 3674160 (symmetry group of order 24)
    0
    >>> main(["solve", "uva11007", "/nonexistent/input.txt"])  # message on stderr
    2
    """
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except InputError as exc:
        sys.stdout.write(exc.answered)
        sys.stdout.flush()
        print(f"permgroup: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
