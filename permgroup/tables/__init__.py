"""Tables: ranked state spaces, breadth-first search, depth tables in memory,
packed, out of core and on Dask."""
