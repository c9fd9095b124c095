"""Fresh Santa-format positions, as a held-out check set: every type of Kaggle's
Santa 2023 and types it never had (other cube sizes, globes, wreaths, the
Megaminx), each
start made from the solved state by random moves (so reachable), with the
type's colours and with every position labelled apart.

Run: ``python benchmarks/santa_fresh.py OUT [--types TYPE...] [--rows N]
[--seed S]``; it writes ``OUT/puzzles.csv`` and ``OUT/puzzle_info.csv``
(:mod:`puzzles.santa_types`), which ``python benchmarks/bench_santa.py --santa
OUT`` then solves and checks with its own applier.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from puzzles.santa_types import colourings, puzzle_info, puzzles_csv, random_rows

#: Santa's own types (the 33x33x33 left to --types: its rows take minutes each)
SANTA = ["cube_2/2/2", "cube_3/3/3", "cube_4/4/4", "cube_5/5/5", "cube_6/6/6", "cube_7/7/7",
         "cube_10/10/10", "wreath_6/6", "wreath_7/7", "wreath_12/12", "wreath_21/21",
         "wreath_33/33", "wreath_100/100", "globe_1/8", "globe_1/16", "globe_2/6", "globe_3/4",
         "globe_6/4", "globe_6/8", "globe_6/10", "globe_3/33", "globe_8/25"]
#: types Kaggle never had
NEW = ["cube_11/11/11", "wreath_5/5", "wreath_9/9", "wreath_16/16", "wreath_50/50",
       "globe_1/3", "globe_2/4", "globe_4/7", "globe_5/12", "globe_2/20", "megaminx"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write puzzles.csv and puzzle_info.csv in")
    parser.add_argument("--types", nargs="+", default=SANTA + NEW, metavar="TYPE")
    parser.add_argument("--rows", type=int, default=1,
                        help="rows per type and colouring (Santa's colours, distinct labels)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rows: list[dict] = []
    for kind in args.types:
        for distinct in colourings(kind):
            rows += random_rows(kind, args.rows, seed=args.seed, distinct=distinct,
                                first_id=len(rows))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "puzzle_info.csv").write_text(puzzle_info(args.types))
    (args.out / "puzzles.csv").write_text(puzzles_csv(rows))
    print(f"# {len(rows)} rows of {len(args.types)} types in {args.out}")


if __name__ == "__main__":
    main()
