"""A bare clone tests itself, and faults in the cache folder never cost an answer.

* nothing the package, the tests or the notebooks read lies outside the
  repository (no path into a ``shared`` folder beside it);
* the wheel ships every file the package reads at run time;
* a cache folder that is a file, cannot be made or cannot be written gives one
  ``permgroup: warning:`` line and the answers all the same;
* temporary files of a writer killed mid-write are removed by the next write;
* public functions that take a facelet string name the type they expected.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest

from permgroup import cache
from permgroup.cache import CacheWarning, load_array, save_array
from puzzles import cube3, minicube, torus
from tests.conftest import ROOT

UVA_SAMPLE = ROOT / "examples" / "uva11007.txt"
# built from pieces so that this file does not match its own search
OUTSIDE = re.compile(r"\.\./" + "shared|" + r"""parent\s*/\s*["']""" + "shared")


def test_nothing_reads_outside_the_repository():
    offenders = []
    for folder in ("tests", "permgroup", "puzzles", "notebooks"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in {".py", ".ipynb", ".md", ".txt", ".json", ".cfg"}:
                text = path.read_text(encoding="utf-8", errors="replace")
                offenders += [f"{path.relative_to(ROOT)}: {m.group(0)}"
                              for m in OUTSIDE.finditer(text)]
    assert not offenders, "files refer to a folder outside the repository: " + "; ".join(offenders)


def test_the_pattern_catches_what_it_should():
    assert OUTSIDE.search('DATA = ROOT.parent / "' + 'shared" / "data"')
    assert OUTSIDE.search("open('../" + "shared/data/x.in')")
    assert not OUTSIDE.search("a renderer is a code reference, so it is not shared")


def _messages(stderr: str) -> list[str]:
    """The lines of ``stderr`` but a progress bar's (shown only when building the
    table takes longer than the bar's delay, as on a loaded machine)."""
    return [line for line in stderr.splitlines()
            if line.strip() and not re.search(r"\[\d\d:\d\d[,<\]]", line)]


def _run(args: list[str], env_cache: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PERMGROUP_CACHE=env_cache)
    return subprocess.run([sys.executable, "-m", "permgroup"] + args, capture_output=True,
                          text=True, env=env, cwd=cwd)


def _expected_uva_answer(tmp_path: Path) -> str:
    good = _run(["solve", "uva11007", str(UVA_SAMPLE)], str(tmp_path / "good-cache"))
    assert good.returncode == 0 and _messages(good.stderr) == []
    return good.stdout


@pytest.mark.parametrize("folder", ["file", "/proc/nonexistent/permgroup-cache"])
def test_unusable_cache_folder_warns_once_and_answers(tmp_path, folder):
    if folder == "file":
        folder = str(tmp_path / "a-file")
        Path(folder).write_text("not a folder\n")
    expected = _expected_uva_answer(tmp_path)
    run = _run(["solve", "uva11007", str(UVA_SAMPLE)], folder)
    assert run.returncode == 0
    assert run.stdout == expected
    lines = _messages(run.stderr)
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith(f"permgroup: warning: cache folder {folder} cannot be used (")
    assert "Traceback" not in run.stderr and ".py:" not in run.stderr


def test_table_without_a_usable_cache(tmp_path):
    folder = tmp_path / "a-file"
    folder.write_text("x")
    run = _run(["table", "minicube"], str(folder))
    assert run.returncode == 0
    assert run.stdout.splitlines()[-1] == "# total 3674160, diameter 14"
    warnings_printed = [line for line in run.stderr.splitlines() if "warning" in line]
    assert warnings_printed == [f"permgroup: warning: cache folder {folder} cannot be used "
                                "(it is not a folder); working without the cache"]


def _read_only_run(folder: Path, args: list[str]) -> subprocess.CompletedProcess:
    """``permgroup ARGS`` with ``folder`` not writable: by permissions for an ordinary
    user, by a private read-only bind mount for root (root ignores permissions)."""
    env = dict(os.environ, PERMGROUP_CACHE=str(folder))
    command = [sys.executable, "-m", "permgroup"] + args
    if os.geteuid() != 0:
        folder.chmod(0o500)
        return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    if not shutil.which("unshare"):
        pytest.skip("running as root without unshare: cannot make a read-only folder here")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("running as root and unshare -m is not permitted: cannot make a read-only "
                    "folder here (the in-process test below covers the same path)")
    script = f"mount --bind -o ro {folder} {folder} && exec \"$@\""
    return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh"] + command,
                          capture_output=True, text=True, env=env, cwd=ROOT)


def test_read_only_cache_folder_warns_once_and_answers(tmp_path):
    expected = _expected_uva_answer(tmp_path)
    folder = tmp_path / "read-only"
    folder.mkdir()
    try:
        run = _read_only_run(folder, ["solve", "uva11007", str(UVA_SAMPLE)])
    finally:
        folder.chmod(0o700)
    assert run.returncode == 0, run.stderr
    assert run.stdout == expected
    lines = _messages(run.stderr)
    assert len(lines) == 1 and lines[0].startswith(
        f"permgroup: warning: cache folder {folder} cannot be used ("), run.stderr
    assert list(folder.iterdir()) == []


def test_unwritable_folder_in_process_gives_a_cache_warning(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cache.tempfile, "mkstemp", refuse)
    path = tmp_path / "sub" / "x.bin"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        save_array(path, {"key": "k"}, np.arange(3, dtype=np.uint8))
    assert [w.category for w in caught] == [CacheWarning]
    assert "Permission denied" in str(caught[0].message)
    assert load_array(path, {"key": "k"}) is None


def test_library_users_get_a_warning_category(tmp_path, monkeypatch):
    folder = tmp_path / "a-file"
    folder.write_text("x")
    monkeypatch.setenv("PERMGROUP_CACHE", str(folder))
    with pytest.warns(CacheWarning, match="it is not a folder"):
        cache.cache_dir()
    assert issubclass(CacheWarning, UserWarning)


KILLED_WRITER = textwrap.dedent("""
    import os, signal, sys
    import numpy as np
    from permgroup import cache
    def die(src, dst):  # killed after writing, before the rename
        os.kill(os.getpid(), signal.SIGKILL)
    cache.os.replace = die
    cache.save_array(sys.argv[1], {"key": "k"}, np.zeros(1 << 20, dtype=np.uint8))
""")


def test_temporary_files_of_killed_writers_are_removed(tmp_path):
    target = tmp_path / "cache" / "big.table"
    seen = []
    for _ in range(3):  # each killed writer leaves its file and removes the one before
        run = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(target)], cwd=ROOT)
        assert run.returncode == -signal.SIGKILL
        (left,) = target.parent.iterdir()
        assert left.name.endswith(".tmp") and left.stat().st_size > 1 << 20
        assert left.name not in seen
        seen.append(left.name)
    save_array(target, {"key": "k"}, np.arange(4, dtype=np.uint8))
    assert sorted(p.name for p in target.parent.iterdir()) == ["big.table"]
    assert load_array(target, {"key": "k"}).tolist() == [0, 1, 2, 3]


def test_a_live_writers_temporary_file_is_kept(tmp_path):
    mine = tmp_path / f"x.table.{os.getpid()}.abcd.tmp"
    mine.write_bytes(b"being written")
    save_array(tmp_path / "y.table", {"key": "k"}, np.arange(2, dtype=np.uint8))
    assert mine.exists()


@pytest.mark.parametrize("call", [
    lambda: minicube.distance(None, None),
    lambda: minicube.distance("UUUURRRRFFFFDDDDLLLLBBBB", None),
    lambda: minicube.solve(None, "UUUURRRRFFFFDDDDLLLLBBBB"),
    lambda: minicube.apply_moves(None, "R"),
    lambda: minicube.same_state(24, "UUUURRRRFFFFDDDDLLLLBBBB"),
    lambda: minicube.element(list("UUUURRRRFFFFDDDDLLLLBBBB")),
    lambda: cube3.element(None),
    lambda: cube3.apply_moves(None, "R"),
    lambda: cube3.check_colouring(b"U" * 54),
])
def test_facelet_functions_name_the_expected_type(call):
    with pytest.raises(TypeError, match=r"expected a facelet string of (24|54) letters .*\(str\)"):
        call()


def test_board_functions_name_the_expected_type():
    with pytest.raises(TypeError, match=r"expected a board string.*got NoneType"):
        torus.distance(None)
    with pytest.raises(TypeError, match=r"expected a board string.*got int"):
        torus.apply_moves(7, "row0")


def _tracked(folder: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", folder], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0 or not out.stdout:
        pytest.skip("not a git checkout: the package's files cannot be listed")
    return out.stdout.split()


@pytest.mark.slow
def test_the_wheel_ships_every_package_file(tmp_path):
    """Every file of the two packages (code and data) is in the wheel, so nothing
    reads from a source tree that an installed copy does not have."""
    wanted = {f for package in ("permgroup", "puzzles") for f in _tracked(package)}
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path),
                            str(ROOT)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    (wheel,) = tmp_path.glob("permgroup-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(wanted - shipped)
    assert not missing, f"not in the wheel: {missing}"
