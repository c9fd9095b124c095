"""Search past what a table holds: the one bounded depth-first search with its
canonical-sequence pruner and the ``Bound`` protocol (:mod:`~permgroup.search.dfs`),
balls of exact depths, pattern databases, IDA* and meet in the middle,
bidirectional search, subgroup chains.

May import ``tables``, ``spaces`` and the group algebra, never the toolkit
above it (``explore``, ``solution``, the command line); ``tests/test_package.py``
checks it.
"""
