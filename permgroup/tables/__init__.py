"""Tables: the breadth-first search that fills a depth per rank of a state
space (:mod:`permgroup.spaces`), its stores, depth tables in memory (one
byte, 4 bits, 2 bits) and over symmetry classes, the walker from a table to
paths, builds past memory (one owner-computes scheme, out of core and on
Dask), and the registry that takes a puzzle to its table.

May import ``spaces``, the group algebra (``permgroup.perm``, ``puzzle``, ``metric``,
``normalize``, ``cache``, ``progress``, ``formats``...), never ``search`` or
the toolkit above it (``explore``, ``solution``, the command line);
``tests/test_package.py`` checks it.  ``docs/architecture.md`` tells the layers.
"""
