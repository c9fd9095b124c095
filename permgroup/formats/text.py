"""The one way input text is read: UTF-8, with a byte-order mark accepted (as
Excel saves it), else refused naming the line and byte; never a lossy decode,
which would make distinct colours (``è``, ``é``) one and answer wrongly.

>>> decode("A;è;é".encode("utf-8"), "rows.csv")
'A;è;é'
>>> decode(b"\\xef\\xbb\\xbfid,moves\\n", "a.csv")  # the BOM dropped
'id,moves\\n'
>>> decode("id\\nA;è;é".encode("latin-1"), "rows.csv")
Traceback (most recent call last):
...
permgroup.errors.InputError: rows.csv, line 2, byte 3: 0xe8 is not UTF-8 (save the file as UTF-8)
"""
from __future__ import annotations

import os
import sys

from permgroup.errors import InputError

BOM = "\ufeff"


def decode(data: bytes, source: str) -> str:
    """The text of ``data`` read as UTF-8, a leading byte-order mark dropped;
    :class:`InputError` naming ``source``, the line and the byte (counted from
    1 in the line) of the first byte that is not UTF-8."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(f"{source}: the file is UTF-16 (its first bytes say so); "
                         "save it as UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        byte = exc.start - data.rfind(b"\n", 0, exc.start)
        raise InputError(f"{source}, line {line}, byte {byte}: 0x{data[exc.start]:02x} is not "
                         "UTF-8 (save the file as UTF-8)") from None
    return text.removeprefix(BOM)


def read_text(path: str | os.PathLike | None) -> str:
    """The text of the file at ``path`` (stdin when ``None`` or ``"-"``), read
    by :func:`decode`; :class:`InputError` naming a file that cannot be read.

    >>> read_text("/nonexistent/rows.csv")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: cannot read /nonexistent/rows.csv: No such file or directory
    """
    if path is None or path == "-":
        return decode(sys.stdin.buffer.read(), "<stdin>")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise InputError(f"cannot read {os.fspath(path)}: {exc.strerror}") from None
    return decode(data, os.fspath(path))
