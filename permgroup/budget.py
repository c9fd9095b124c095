"""The one budget every search, table build and expansion runs under: a
deadline, a memory allowance and a way to cancel, and the one way running out
is reported (:class:`~permgroup.errors.Stopped`).

A budget is made once, where a request comes in (a command, a call of
:func:`permgroup.solve`), and handed down; a part of the work that should leave
time for the rest takes :meth:`Budget.share` of it.  Work asks
:meth:`Budget.check` between chunks (it raises :class:`Stopped` naming the
reason) and :meth:`Budget.require` before it allocates (it raises
:class:`MemoryBudgetError`, an :class:`~permgroup.errors.InputError` naming the
size and what would work instead).

>>> budget = Budget.of(time_limit=5, memory="1GB")
>>> budget.memory, 0 < budget.left() <= 5
(1000000000, True)
>>> half = budget.share(0.5)
>>> half.left() <= 2.5 and half.memory == budget.memory
True
>>> budget.require(10**10, "a table of 10,000,000,000 bytes", "use --packed")
Traceback (most recent call last):
...
permgroup.budget.MemoryBudgetError: a table of 10,000,000,000 bytes needs 10.0 GB, more than the memory budget of 1.0 GB; use --packed
>>> Budget.of(time_limit=0)
Traceback (most recent call last):
...
permgroup.errors.InputError: a time limit must be more than 0 seconds, got 0
"""
from __future__ import annotations

import math
import re
import threading
import time
from dataclasses import dataclass, field, replace

from permgroup.errors import InputError, Stopped

#: the default memory budget is this share of the memory the machine has free ...
FREE_SHARE = 0.5
#: ... and never more than this many bytes (a search or table past it is refused,
#: with what would work instead)
DEFAULT_MEMORY = 2 * 10 ** 9
#: the least memory budget accepted (bytes)
MIN_MEMORY = 10 ** 6

_UNITS = {"": 1, "B": 1, "K": 10 ** 3, "KB": 10 ** 3, "M": 10 ** 6, "MB": 10 ** 6,
          "G": 10 ** 9, "GB": 10 ** 9, "T": 10 ** 12, "TB": 10 ** 12,
          "KIB": 2 ** 10, "MIB": 2 ** 20, "GIB": 2 ** 30, "TIB": 2 ** 40}


class MemoryBudgetError(InputError):
    """Work that would need more memory than its budget, refused before it
    starts: the message names the size and what would work instead."""


def free_memory() -> int | None:
    """The bytes of memory the machine has available now (Linux's
    ``MemAvailable``; ``None`` where that cannot be read).

    >>> free = free_memory()
    >>> free is None or free > 0
    True
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def default_memory() -> int:
    """The memory budget when none is given: :data:`FREE_SHARE` of the free
    memory, at most :data:`DEFAULT_MEMORY`.

    >>> MIN_MEMORY <= default_memory() <= DEFAULT_MEMORY
    True
    """
    now = time.monotonic()
    if now - _DEFAULT[0] > 1.0:  # a budget per answer: read the free memory once a second
        free = free_memory()
        _DEFAULT[:] = [now, DEFAULT_MEMORY if free is None else
                       max(MIN_MEMORY, min(DEFAULT_MEMORY, int(free * FREE_SHARE)))]
    return _DEFAULT[1]


_DEFAULT: list = [-math.inf, DEFAULT_MEMORY]


def parse_memory(text: str | int | float) -> int:
    """Bytes in a size such as ``4GB``, ``512MB``, ``1.5GiB`` or ``1000000``
    (a number is bytes already); :class:`InputError` for anything else or for
    less than :data:`MIN_MEMORY`.

    >>> parse_memory("4GB"), parse_memory("512 MiB"), parse_memory(2_000_000)
    (4000000000, 536870912, 2000000)
    >>> parse_memory("lots")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: --memory 'lots': expected a size such as 4GB or 512MB
    >>> parse_memory("0.5")
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: --memory '0.5': at least 1 MB is needed
    """
    if isinstance(text, bool):
        raise InputError(f"--memory {text!r}: expected a size such as 4GB or 512MB")
    if isinstance(text, (int, float)):
        if not math.isfinite(text):
            raise InputError(f"--memory {text!r}: expected a size such as 4GB or 512MB")
        size = int(text)
    else:
        match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([KMGT]?I?B?)\s*", str(text).upper())
        if not match or match.group(2) not in _UNITS:
            raise InputError(f"--memory {text!r}: expected a size such as 4GB or 512MB")
        size = int(float(match.group(1)) * _UNITS[match.group(2)])
    if size < MIN_MEMORY:
        raise InputError(f"--memory {text!r}: at least 1 MB is needed")
    return size


def size_text(n: float) -> str:
    """A size in bytes as ``permgroup cache`` and the engine's messages print
    it; any size, however large (a bound on a huge group's table).

    >>> size_text(512), size_text(933_400), size_text(2.5e15), size_text(10**40)
    ('512 B', '933.4 kB', '2.5 PB', '1e+22 EB')
    >>> size_text(2**20000)  # beyond a float
    '~10^6020 B'
    """
    if n >= 10 ** 300:
        return f"{approx(n)} B"
    n = float(n)
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if n < 1000:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.3g} EB" if n >= 10 ** 4 else f"{n:.1f} EB"


def approx(n: float) -> str:
    """A count to three figures, however large (a bound on a huge group's
    positions is past any float).

    >>> approx(2419180000000000000000000000000000000000000000000000000000000000000000)
    '2.42e+69'
    >>> approx(10 ** 5000 + 1), approx(12)
    ('~10^5000', '12')
    """
    if n >= 10 ** 300:
        return f"~10^{int(math.log10(n))}"
    return f"{n:.3g}"


def parse_time_limit(value: float | int | str | None, default: float | None = None) -> float | None:
    """A time limit in seconds, checked: more than 0 and finite (``None`` gives
    ``default``).

    >>> parse_time_limit("2.5"), parse_time_limit(None, 10)
    (2.5, 10)
    >>> parse_time_limit(-1)
    Traceback (most recent call last):
    ...
    permgroup.errors.InputError: a time limit must be more than 0 seconds, got -1
    """
    if value is None:
        return default
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise InputError(f"a time limit must be a number of seconds, got {value!r}") from None
    if not math.isfinite(seconds):
        raise InputError(f"a time limit must be a finite number of seconds, got {value}")
    if not seconds > 0:
        raise InputError(f"a time limit must be more than 0 seconds, got {value}")
    return seconds


@dataclass(frozen=True)
class Budget:
    """When work must end (``deadline``, a ``time.monotonic()`` time, ``None``
    for never), how much memory it may take (``memory``, bytes), and an event
    that cancels it from outside (a widget's newer request, Ctrl-C).

    >>> Budget.of(time_limit=None).left()
    inf
    >>> budget = Budget.of(time_limit=60)
    >>> budget.cancel.set(); budget.stop_reason()
    'cancelled'
    """

    deadline: float | None = None
    memory: int = DEFAULT_MEMORY
    cancel: threading.Event = field(default_factory=threading.Event, compare=False)

    @classmethod
    def of(cls, time_limit: float | int | str | None = None,
           memory: str | int | float | None = None,
           cancel: threading.Event | None = None) -> Budget:
        """A budget of ``time_limit`` seconds from now and ``memory`` (a size
        :func:`parse_memory` reads; :func:`default_memory` when ``None``),
        cancelled by ``cancel`` when given."""
        seconds = parse_time_limit(time_limit)
        return cls(None if seconds is None else time.monotonic() + seconds,
                   default_memory() if memory is None else parse_memory(memory),
                   cancel if cancel is not None else threading.Event())

    def left(self) -> float:
        """Seconds until the deadline (``inf`` without one, never below 0)."""
        if self.deadline is None:
            return math.inf
        return max(0.0, self.deadline - time.monotonic())

    def share(self, fraction: float, at_most: float | None = None) -> Budget:
        """The budget of a part of the work: ``fraction`` of the time left (and
        at most ``at_most`` seconds), the same memory, cancelled with this one."""
        left = self.left() * fraction
        if at_most is not None:
            left = min(left, at_most)
        if math.isinf(left):
            return self
        return replace(self, deadline=time.monotonic() + left)

    def with_memory(self, memory: int) -> Budget:
        """The same deadline with ``memory`` bytes (a part that may use less)."""
        return replace(self, memory=int(memory))

    def stop_reason(self) -> str | None:
        """Why work must stop now (``"the time limit"``, ``"cancelled"``) or ``None``."""
        if self.cancel.is_set():
            return "cancelled"
        if self.deadline is not None and time.monotonic() > self.deadline:
            return "the time limit"
        return None

    @property
    def expired(self) -> bool:
        """Whether work must stop now."""
        return self.stop_reason() is not None

    def check(self, ruled_out: int = 0) -> None:
        """Raise :class:`Stopped` when work must stop; ``ruled_out`` says how
        many moves the search has proven a word needs more than."""
        reason = self.stop_reason()
        if reason is not None:
            raise Stopped(reason, ruled_out)

    def watch(self, progress=None):
        """A progress callback ``(depth, count)`` for a table build: it passes
        each level on to ``progress`` (a bar, when given), then checks the
        budget, so that a build stops between levels once it has run out
        (:class:`Stopped`; a build writes its file only when it is complete).

        >>> report = Budget.of(time_limit=60).watch()
        >>> report(0, 1)  # within the budget: nothing happens
        """
        def report(depth: int, count: int) -> None:
            if progress is not None:
                progress(depth, count)
            self.check()
        return report

    def fits(self, nbytes: float) -> bool:
        """Whether ``nbytes`` fit in the memory budget."""
        return nbytes <= self.memory

    def require(self, nbytes: float, what: str, advice: str = "") -> None:
        """Refuse, before it starts, work that needs more than the memory budget:
        :class:`MemoryBudgetError` naming ``what``, its size and ``advice``."""
        if not self.fits(nbytes):
            raise MemoryBudgetError(
                f"{what} needs {size_text(nbytes)}, more than the memory budget of "
                f"{size_text(self.memory)}" + (f"; {advice}" if advice else ""))

