"""Bad input never gives a traceback: each gives a one-line reason and a non-zero exit."""

from __future__ import annotations

import os

import pytest

from tests.helpers import SAMPLE_GAMES, console_script, run_command, score_in_process

GAME1 = (SAMPLE_GAMES / "game1.sueca").read_text()


def write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize("name, data, status, first_line", [
    ("empty.sueca", b"", 1, "The game is invalid"),
    ("blank.sueca", b"\n \n\t\n", 1, "The game is invalid"),
    ("binary.sueca", bytes(range(256)) * 4, 2, "Could not read the game file: "),
    ("latin1.sueca", "Trump Card: 7D\n# Jo\u00e3o\n".encode("latin-1"), 2,
     "Could not read the game file: "),
    ("stray.sueca", (GAME1 + "well played!\n").encode(), 1, "The game is invalid"),
    ("tokens.sueca", b"Trump Card: 7D\nAH 2D 5H 2H ; KC\n", 1, "The game is invalid"),
], ids=lambda v: v if isinstance(v, str) and v.endswith(".sueca") else "")
def test_bad_files(tmp_path, name, data, status, first_line):
    got, out, err = score_in_process(write(tmp_path, name, data))
    assert got == status
    text = out or err
    assert text.startswith(first_line)
    assert "Traceback" not in text and len(text.splitlines()) <= 3


def test_enormous_file_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "huge.sueca"
    with open(path, "wb") as f:
        f.write(GAME1.encode())
        f.truncate(100 * 1024 * 1024)  # 100 MB, sparse
    status, out, err = score_in_process(str(path))
    assert status == 2 and out == ""
    assert err.strip() == (f"Could not read the game file: '{path}' is too large to be a game "
                           "file (100.0 MB; a game file is a few hundred bytes)")


def test_folder_instead_of_file(tmp_path):
    status, _, err = score_in_process(str(tmp_path))
    assert status == 2 and err.strip() == f"Could not read the game file: '{tmp_path}' is a folder, not a game file"


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file(tmp_path):  # pragma: no cover - CI runs as root
    path = tmp_path / "locked.sueca"
    path.write_text(GAME1)
    path.chmod(0)
    status, _, err = score_in_process(str(path))
    assert status == 2 and "cannot read" in err


def test_binary_file_through_the_installed_command(tmp_path):
    path = write(tmp_path, "photo.sueca", b"\x89PNG\r\n\x1a\n\x00\x00")
    result = run_command([console_script("sueca-scorer"), path])
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip() == f"Could not read the game file: '{path}' is a binary file, not a game file"


def test_endless_device_is_refused():
    status, out, err = score_in_process("/dev/zero")
    assert status == 2 and out == ""
    assert err.strip() == ("Could not read the game file: '/dev/zero' is too large to be a game "
                           "file (at least 64.0 KB; a game file is a few hundred bytes)")


@pytest.mark.parametrize("command", [["sueca-referee", "score"], ["sueca-scorer"]])
def test_output_into_a_closed_pipe_is_no_traceback(command):
    """``sueca-scorer ... | head -1``: the reader goes away before the program has said all;
    it stops quietly."""
    import subprocess

    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will read: every write fails
    try:
        done = subprocess.run([console_script(command[0]), *command[1:], "-g",
                               str(SAMPLE_GAMES / "game1.sueca")], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and done.stderr == "", done.stderr
    assert done.returncode != 0
