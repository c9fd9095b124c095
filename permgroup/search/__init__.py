"""Search past what a table holds: digit spaces, balls, pattern databases,
IDA*, meet in the middle, bidirectional search, subgroup chains.

May import ``tables`` and the group algebra, never the toolkit above it
(``explore``, ``oracle``, the command line); ``tests/test_package.py`` checks it.
"""
