"""Contest formats: thin readers and writers over the puzzles' public API.

Each format module has ``solve_text(text, **options) -> str``: the contest
input in, the exact contest output out, :class:`permgroup.errors.InputError`
for bad input.  They are imported only when used, to keep start-up lean.
"""

FORMATS = {
    "uva11007": "puzzles.formats.uva11007",
    "minicube-pair": "puzzles.formats.minicube_pair",
    "hdu2691": "puzzles.formats.hdu2691",
    "zoj2477": "puzzles.formats.zoj2477",
    "rubiksrevenge": "puzzles.formats.rubiksrevenge",
    "poj3131": "puzzles.formats.poj3131",
    "cube3-facelets": "puzzles.formats.cube3_facelets",
    "santa2023": "puzzles.formats.santa2023",
}
