"""State spaces: states numbered ``0..size-1`` and moved many at a time.

The protocol (``space``), the ranking kernel (``ranking``) and the spaces:
elements up to symmetry (``element``), products of digits with move tables
(``product``), colourings (``colouring``), definitions piece by piece
(``orbit``), one-hole puzzles with guarded moves (``hole``, ``partial``), and
columns of digits for groups too large for one rank (``digits``).

May import the group algebra (``permgroup.perm``, ``puzzle``, ``metric``,
``normalize``, ``formats``, ``cache``...), never ``tables``, ``search`` or the
toolkit; ``tests/test_package.py`` checks it.
"""
