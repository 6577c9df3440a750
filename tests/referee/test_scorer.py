"""The text scorer against golden transcripts written from the coursework, and its exit codes.

Each golden case runs both installed commands, ``sueca-scorer`` and ``sueca-referee score``.
"""

from __future__ import annotations

import pytest

from tests.helpers import GOLDEN, SAMPLE_GAMES, console_script, run_command, score_in_process

COMMANDS = {
    "sueca-scorer": (["sueca-scorer"], "sueca-scorer"),
    "sueca-referee score": (["sueca-referee", "score"], "sueca-referee score"),
}

GAMES = [  # (golden file, options, game, exit status)
    ("game1.out", [], "game1.sueca", 0),
    ("game1-c.out", ["-c"], "game1.sueca", 0),
    ("game1-g.out", ["-g"], "game1.sueca", 0),
    ("game2.out", [], "game2.sueca", 0),
    ("game1a.out", [], "game1a.sueca", 1),
    ("game1b.out", [], "game1b.sueca", 1),
    ("game1c.out", [], "game1c.sueca", 1),
    ("game1d.out", [], "game1d.sueca", 1),
    ("game1e.out", [], "game1e.sueca", 1),
]

USAGE = [  # (golden file, arguments)
    ("invalid-option.err", ["-d", "game1.sueca"]),
    ("missing-file.err", []),
    ("no-such-file.err", ["game9.sueca"]),
]


def command(name: str) -> tuple[list[str], str]:
    words, prog = COMMANDS[name]
    return [console_script(words[0])] + words[1:], prog


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("golden, options, game, status", GAMES, ids=[g[0] for g in GAMES])
def test_sample_games_match_the_coursework(name, golden, options, game, status):
    argv, _ = command(name)
    result = run_command(argv + options + [game], cwd=SAMPLE_GAMES)
    assert result.stdout == (GOLDEN / golden).read_text()
    assert result.stderr == ""
    assert result.returncode == status


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("golden, args", USAGE, ids=[u[0] for u in USAGE])
def test_usage_errors_match_the_coursework(name, golden, args):
    argv, prog = command(name)
    result = run_command(argv + args, cwd=SAMPLE_GAMES)
    assert result.stderr == (GOLDEN / golden).read_text().replace("PROG", prog)
    assert result.stdout == ""
    assert result.returncode == 2


def test_both_options_together_show_cards_then_tricks():
    status, out, _ = score_in_process("-cg", str(SAMPLE_GAMES / "game1.sueca"))
    cards = (GOLDEN / "game1-c.out").read_text()
    tricks = (GOLDEN / "game1-g.out").read_text().split("\n", 2)[2]
    assert status == 0 and out == cards + tricks


def test_a_revoke_game_can_still_list_its_cards():
    status, out, _ = score_in_process("-c", str(SAMPLE_GAMES / "game1c.sueca"))
    assert status == 1 and out.splitlines()[4] == "Player's cards in the sueca game"


def test_help():
    status, out, _ = score_in_process("--help")
    assert status == 0 and out.startswith("Usage: sueca-scorer [-c | -g] <game_file>")


def test_main_program_help_lists_score():
    result = run_command([console_script("sueca-referee"), "--help"])
    assert result.returncode == 0 and "score" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["a.sueca", "b.sueca"], "Only one game file can be scored at a time; got 'a.sueca', 'b.sueca'"),
    (["--colour", "g.sueca"], "Invalid option --colour"),
    (["-cx", "g.sueca"], "Invalid option -cx"),
    (["--config"], "Option --config needs a file name"),
])
def test_other_usage_errors(args, message):
    status, out, err = score_in_process(*args)
    assert status == 2 and out == ""
    assert err.splitlines() == [message, "Usage: sueca-scorer [-c | -g] <game_file>"]


def test_score_line_is_checked(tmp_path):
    good = tmp_path / "good.sueca"
    good.write_text((SAMPLE_GAMES / "game1.sueca").read_text() + "Score: 76 - 44\n")
    assert score_in_process(str(good))[0] == 0
    bad = tmp_path / "bad.sueca"
    bad.write_text((SAMPLE_GAMES / "game1.sueca").read_text() + "\nScore: 70 - 50\n")
    status, out, _ = score_in_process(str(bad))
    assert status == 1
    assert out.splitlines() == [
        "Pair A won the given sueca game.", "Score: 76 | 44",
        "The score line says 70 | 50 but the tricks give 76 | 44 (line 13 of game file)"]


def test_config_changes_the_table_order(tmp_path):
    config = tmp_path / "anticlockwise.yaml"
    config.write_text("table: {dealer: 4, first_leader: 1, direction: anticlockwise}\n")
    status, out, _ = score_in_process("--config", str(config), "-c",
                                      str(SAMPLE_GAMES / "game1.sueca"))
    # Read anticlockwise, the first trick's cut (2D) is seat 4's; the plays fall differently.
    assert "Player 4: 2D" in out
    bad = tmp_path / "typo.yaml"
    bad.write_text("table: {dealr: 2}\n")
    status, out, err = score_in_process("--config", str(bad), str(SAMPLE_GAMES / "game1.sueca"))
    assert status == 2 and "unknown key 'table.dealr'" in err and out == ""
