"""Progress of long work: a tqdm bar on stderr on the command line, a notebook
bar in Jupyter, shown only once the work has taken a second (quick work stays
silent).

Table builds report through a callback ``progress(depth, count)`` after each
breadth-first level (:data:`Progress`).  :class:`Bar` is such a callback that
draws a bar of the states reached (out of the space's size when it is known);
:func:`building` is the context every build runs in: the caller's callback
when there is one, else a bar of its own, so that a first use that builds a
table shows it without being asked.  :func:`working` shows elapsed time for
work that cannot count its steps (sympy's group order).

tqdm is the ecosystem's progress bar (``tqdm.auto`` picks the notebook widget
in Jupyter); without it, a bar prints one line per level instead.

>>> import io
>>> stream = io.StringIO()
>>> with Bar("ring", total=10, delay=0, stream=stream) as bar:
...     bar(0, 1)
...     bar(1, 2)
>>> bar.reached, bar.levels
(3, 2)
>>> "ring" in stream.getvalue()
True
"""
from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO

#: ``progress(depth, count)``: called by a breadth-first search after each level
Progress = Callable[[int, int], None]

#: seconds of work before a bar appears
DELAY = 1.0


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        ip = shell.get_ipython()
    except AttributeError:  # pragma: no cover
        return False
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


class Bar:
    """A progress callback drawing a bar: ``bar(depth, count)`` adds a level of
    ``count`` states at ``depth``.  ``total`` (the space's size) gives the bar
    its length; ``stage(text)`` renames it for the next part of the work.

    The bar is a notebook widget inside Jupyter, else text on ``stream``
    (stderr); it appears once ``delay`` seconds have passed since it was made.
    ``levels`` and ``reached`` say what it was told: a bar that saw no level
    belongs to work that found its result in the cache.
    """

    def __init__(self, description: str, total: int | None = None, *, unit: str = "states",
                 delay: float | None = None, stream: IO[str] | None = None,
                 bar_format: str | None = None):
        self.description, self.total, self.unit = description, total, unit
        self.bar_format = bar_format
        self.delay = DELAY if delay is None else delay
        self.stream = stream
        self.levels = self.reached = 0
        self.started = time.monotonic()
        self._bar = None
        self._closed = False

    def _open(self):
        if self._bar is None:
            try:
                if self.stream is None and _in_notebook():
                    from tqdm.notebook import tqdm
                else:
                    from tqdm import tqdm
            except ImportError:
                return None
            self._bar = tqdm(total=self.total, desc=self.description, unit=f" {self.unit}",
                             unit_scale=self.total is None or self.total >= 10 ** 5, delay=max(0.0, self.delay - self.elapsed()),
                             file=self.stream or sys.stderr, leave=True, dynamic_ncols=True,
                             bar_format=self.bar_format)
        return self._bar

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def __call__(self, depth: int, count: int) -> None:
        self.levels += 1
        self.reached += count
        bar = self._open()
        if bar is None:  # no tqdm: one line per level once the delay has passed
            if self.elapsed() >= self.delay:
                print(f"{self.description}: depth {depth}: {count:,} {self.unit} "
                      f"({self.elapsed():.1f} s)", file=self.stream or sys.stderr, flush=True)
            return
        bar.set_postfix_str(f"depth {depth}", refresh=False)
        bar.update(count)

    def stage(self, description: str) -> None:
        """Name the next part of the work (a new table, a new phase)."""
        self.description = description
        if self._bar is not None:
            self._bar.set_description_str(description, refresh=False)

    def close(self, finished: bool = True) -> None:
        """End the bar; a ``finished`` search that stopped short of its total
        shows what it reached as the whole (an interrupted one is left as it was)."""
        if self._bar is not None and not self._closed:
            if finished and self._bar.total and self._bar.n < self._bar.total:
                # the search reached all it could: the rest of the space is unreachable
                self._bar.total = self._bar.n
                self._bar.refresh()
            self._bar.close()
        self._closed = True

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, kind, *exc) -> None:
        self.close(finished=kind is None)


@contextmanager
def building(progress: Progress | None, description: str, total: int | None = None
             ) -> Iterator[Progress]:
    """The callback a build reports its levels to: ``progress`` when the caller
    gave one, else a :class:`Bar` of its own (shown after :data:`DELAY`
    seconds), closed when the build ends.

    >>> levels = []
    >>> with building(lambda d, c: levels.append((d, c)), "t") as report:
    ...     report(0, 1)
    >>> levels
    [(0, 1)]
    """
    if progress is not None:
        if isinstance(progress, Bar) and progress.total is None and progress._bar is None:
            progress.total = total  # the caller's bar learns the space's size
        yield progress
        return
    with Bar(description, total) as bar:
        yield bar


@contextmanager
def working(description: str, *, delay: float | None = None, stream: IO[str] | None = None
            ) -> Iterator[None]:
    """Show elapsed time while the body runs (for work that cannot count its
    steps), from :data:`DELAY` seconds on; nothing for quicker work.

    >>> with working("adding"):
    ...     _ = 1 + 1
    """
    delay = DELAY if delay is None else delay
    done = threading.Event()
    bar = Bar(description, delay=0, stream=stream, bar_format="{desc}: {elapsed}")

    def tick() -> None:
        if done.wait(delay):
            return
        shown = bar._open()
        if shown is not None:  # count from the start of the work, not of the bar
            shown.start_t -= bar.elapsed()
        if shown is None:
            print(f"{description}...", file=stream or sys.stderr, flush=True)
            return
        while not done.wait(0.5):
            shown.refresh()

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        bar.close()


def print_loaded(description: str, bar: Bar, stream: IO[str] | None = None) -> None:
    """One line saying the result came from the cache, when ``bar`` saw no level
    (the command line's answer to a header left dangling).

    >>> import io
    >>> stream = io.StringIO()
    >>> print_loaded("minicube (qtm)", Bar("x"), stream)
    >>> stream.getvalue()
    'minicube (qtm): loaded from the cache\\n'
    """
    if not bar.levels:
        print(f"{description}: loaded from the cache", file=stream or sys.stderr, flush=True)


__all__ = ["Bar", "building", "working", "print_loaded", "Progress", "DELAY"]
