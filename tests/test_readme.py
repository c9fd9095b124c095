"""The README's first example runs as written and gives what its comments say."""
from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_first_python_example_runs_and_answers_as_its_comments_say():
    block = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S).group(1)
    names: dict = {}
    exec(compile(block, "README.md", "exec"), names)
    minicube = names["minicube"]
    a, b = names["a"], names["b"]
    assert minicube.distance(a, b) == 4
    assert len(minicube.solve(a, b)) == 4
    found = names["found"]
    assert (found.word, found.optimal, found.method) == (["URB'", "URF'"], True, "table")
