"""Moved to :mod:`permgroup.moves` (the algebra layer); this re-export is
temporary while other work rebases onto the move."""
from permgroup.moves import Letter, MoveSet, perm_order  # noqa: F401
