"""State spaces: states numbered ``0..size-1`` and moved many at a time.

:mod:`~permgroup.spaces.space` says what a space is (the :class:`StateSpace`
protocol and the capabilities a space declares); :mod:`~permgroup.spaces.ranking`
is the ranking kernel every space uses (permutations, placements, multisets,
orientations).  The spaces: elements of a puzzle group up to symmetry
(:mod:`~permgroup.spaces.element`), products of digits with move tables
(:mod:`~permgroup.spaces.product`), colourings with repeated colours
(:mod:`~permgroup.spaces.colouring`), definitions piece by piece
(:mod:`~permgroup.spaces.orbit`), one-hole puzzles whose moves depend on the
state (:mod:`~permgroup.spaces.hole`, :mod:`~permgroup.spaces.partial`), and
columns of digits for groups too large for one rank (:mod:`~permgroup.spaces.digits`).

May import the group algebra (``permgroup.perm``, ``puzzle``, ``metric``,
``normalize``, ``formats``, ``cache``...), never ``tables``, ``search`` or the
toolkit; ``tests/test_package.py`` checks it.
"""
