"""Benchmark of the exploring toolkit: Cayley graphs, words, elements.

Run: ``python benchmarks/bench_cayley.py`` (about half a minute).  Prints
medians and ratios against baselines measured in the same run:

* the Cayley-graph search (:func:`permgroup.cayley.ball`, numpy levels) against
  a plain Python breadth-first search over tuples with a dict, on ⟨R, U⟩ of the
  mini cube (29,160 elements) and on a ball of radius 5 of the whole mini cube;
* filling the networkx graph, which is the dominant cost of ``cayley_graph``;
* parsing a 1000-move word, and element products, against ``perm.compose``.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import median_time, report  # noqa: E402
from permgroup import cayley, explore# noqa: E402
from permgroup.elements import Element  # noqa: E402
from permgroup.metric import metric_moves  # noqa: E402
from permgroup.normalize import Normalizer  # noqa: E402
from permgroup.perm import compose  # noqa: E402
from permgroup.words import parse_word  # noqa: E402
from puzzles import minicube  # noqa: E402


def plain_ball(puzzle, metric="qtm", radius=None):
    """The baseline: one Python loop step per element and move."""
    normalizer = Normalizer.from_puzzle(puzzle, explore.choose_anchor(puzzle, metric))
    moves = list(normalizer.normalize_moves(metric_moves(puzzle, metric)).values())
    start = tuple(range(puzzle.degree))
    depth = {start: 0}
    edges = []
    frontier = [start]
    level = 0
    while frontier and (radius is None or level < radius):
        nxt = []
        for g in frontier:
            for m in moves:
                h = compose(g, m)
                if h not in depth:
                    depth[h] = level + 1
                    nxt.append(h)
                edges.append((g, h))
        frontier = nxt
        level += 1
    return depth, edges


def main() -> None:
    print("machine shared with other agents during the run: figures are indicative")
    cube = minicube.PUZZLE
    ru = explore.subgroup(cube, "R U")
    rows = []
    for label, puzzle, radius in (("<R,U> whole group (29,160)", ru, None),
                                  ("minicube ball radius 5 (2,944)", cube, 5)):
        base = median_time(lambda: plain_ball(puzzle, radius=radius), repeat=5)
        fast = median_time(lambda: cayley.ball(puzzle, radius=radius), repeat=5)
        graph = median_time(lambda: cayley.cayley_graph(puzzle, radius=radius), repeat=3)
        assert len(cayley.ball(puzzle, radius=radius).depths) == len(
            plain_ball(puzzle, radius=radius)[0])
        rows += [(f"{label}: plain Python BFS (baseline)", base, "s", 1.0),
                 (f"{label}: numpy BFS (cayley.ball)", fast, "s", fast / base),
                 (f"{label}: cayley_graph incl. networkx", graph, "s", graph / base)]
    rng = random.Random(0)
    names = list(metric_moves(cube, "htm"))
    text = " ".join(rng.choice(names) for _ in range(1000))
    parse = median_time(lambda: parse_word(cube, text), repeat=7)
    perms = [cube.move_array(n) for n in text.split()]

    def plain_product():
        p = tuple(range(24))
        for m in perms:
            p = compose(p, m)
        return p

    base = median_time(plain_product, repeat=7)
    build = median_time(lambda: Element.from_word(cube, text), repeat=7)
    assert Element.from_word(cube, text).perm == plain_product()
    rows += [("1000-move word: compose the arrays (baseline)", base, "s", 1.0),
             ("1000-move word: parse_word", parse, "s", parse / base),
             ("1000-move word: Element.from_word (parse + product)", build, "s", build / base)]
    report(rows)


if __name__ == "__main__":
    main()
