"""The typed configuration of the rules, read once from ``config.yaml`` by the entry points.

Only the sections the rules need are read here (``table``, ``match``, ``referee``); the other
top-level section (``layout``) belongs to the vision stages, which read it themselves. Unknown
sections, and unknown keys inside them, are errors, so a typo does not silently fall back to a
default.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .match import MatchRules
from .seats import Direction, Seat, TableOrder

PROJECT_CONFIG = Path(__file__).resolve().parent.parent / "config.yaml"
# the config file's top-level sections: the rules' and the table layout's (``vision.layout``)
SECTIONS = ("table", "match", "referee", "layout")


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True, slots=True)
class RefereeSettings:
    """``min_confidence``: readings below it are asked for again, never acted on.
    ``accuse_confidence``: readings that would prove cheating, or tell a player their card
    is not a Sueca card, must reach this.
    ``follow_suit``: at most how many times likelier a camera's referee makes a card read
    unsurely for being of the suit its seat is led to (players follow suit when they can);
    1 weighs nothing."""

    min_confidence: float = 0.9
    accuse_confidence: float = 0.98
    follow_suit: float = 20.0


@dataclass(frozen=True, slots=True)
class RulesConfig:
    order: TableOrder = field(default_factory=TableOrder)
    match: MatchRules = field(default_factory=MatchRules)
    referee: RefereeSettings = field(default_factory=RefereeSettings)
    source: str = "built-in defaults"


def find_config(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The config file to use: ``explicit``, else ``$SUECA_REFEREE_CONFIG``, else
    ``./config.yaml``, else the project's own ``config.yaml``; None if there is none."""
    if explicit is not None:
        return Path(explicit)
    env = os.environ.get("SUECA_REFEREE_CONFIG")
    if env:
        return Path(env)
    for candidate in (Path.cwd() / "config.yaml", PROJECT_CONFIG):
        if candidate.is_file():
            return candidate
    return None


def read_config_file(path: Path) -> dict[str, Any]:
    """The YAML mapping in ``path``. Raises ``ConfigError`` with a one-line reason."""
    import yaml  # the rules need no YAML unless a file is read

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file '{path}' does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read config file '{path}': {error}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"config file '{path}' is not valid YAML{where}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"config file '{path}' must hold a mapping of sections")
    unknown = sorted(str(name) for name in data if name not in SECTIONS)
    if unknown:
        import difflib

        like = difflib.get_close_matches(unknown[0], SECTIONS, n=1)
        hint = f"did you mean '{like[0]}'?" if like else f"the sections are {', '.join(SECTIONS)}"
        raise ConfigError(f"{path}: unknown section '{unknown[0]}' ({hint})")
    return data


def load_rules_config(explicit: str | os.PathLike[str] | None = None) -> RulesConfig:
    """Read the rules' sections of the config file found by ``find_config``."""
    path = find_config(explicit)
    if path is None:
        return RulesConfig()
    return rules_from_mapping(read_config_file(path), str(path))


def rules_from_mapping(data: dict[str, Any], source: str) -> RulesConfig:
    def section(name: str, keys: set[str]) -> dict[str, Any]:
        value = data.get(name) or {}
        if not isinstance(value, dict):
            raise ConfigError(f"{source}: '{name}' must be a mapping")
        unknown = set(value) - keys
        if unknown:
            raise ConfigError(f"{source}: unknown key '{name}.{sorted(unknown)[0]}'")
        return value

    def number(kind: type, where: dict[str, Any], name: str, key: str, default: Any) -> Any:
        """``where[key]`` (``default`` if absent) as ``kind`` (int or float), or a ConfigError
        naming ``name.key``: a word, a list, yes/no or, for a whole number, a fraction."""
        value = where.get(key, default)
        what = "a whole number" if kind is int else "a number"
        try:
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                raise ValueError
            converted = kind(value) if kind is float else kind(float(value))
            if kind is int and converted != float(value):
                raise ValueError
        except (TypeError, ValueError):
            raise ConfigError(f"{source}: '{name}.{key}' must be {what}, not {value!r}") from None
        return converted

    table = section("table", {"dealer", "first_leader", "direction"})
    match = section("match", {"game_points", "games_to_win"})
    ref = section("referee", {"min_confidence", "accuse_confidence", "follow_suit"})
    defaults, base = MatchRules(), RefereeSettings()
    dealer = number(int, table, "table", "dealer", 2)
    leader = number(int, table, "table", "first_leader", 1)
    points = match.get("game_points")
    if points is not None and (not isinstance(points, list) or not all(
            isinstance(p, dict) and set(p) == {"from", "games"} for p in points)):
        raise ConfigError(f"{source}: 'match.game_points' must be a list of "
                          "{from: POINTS, games: GAMES}")
    game_points = (tuple((number(int, p, "match.game_points", "from", None),
                          number(int, p, "match.game_points", "games", None)) for p in points)
                   if points is not None else defaults.game_points)
    games_to_win = number(int, match, "match", "games_to_win", defaults.games_to_win)
    least = number(float, ref, "referee", "min_confidence", base.min_confidence)
    accuse = number(float, ref, "referee", "accuse_confidence", base.accuse_confidence)
    follow = number(float, ref, "referee", "follow_suit", base.follow_suit)
    for key, seat in (("dealer", dealer), ("first_leader", leader)):
        if not 1 <= seat <= 4:
            raise ConfigError(f"{source}: 'table.{key}' must be a seat, 1 to 4, not {seat}")
    direction = str(table.get("direction", "clockwise")).lower()
    if direction not in {d.value for d in Direction}:
        raise ConfigError(f"{source}: 'table.direction' must be one of "
                          f"{', '.join(d.value for d in Direction)}, not {direction!r}")
    try:
        order = TableOrder(Seat(dealer), Seat(leader), Direction(direction))
        rules = MatchRules(game_points, games_to_win)
        settings = RefereeSettings(least, accuse, follow)
    except (KeyError, TypeError, ValueError) as error:
        raise ConfigError(f"{source}: {error}") from None
    if order.dealer == order.first_leader:
        raise ConfigError(f"{source}: the dealer does not lead the first trick")
    if not 0 <= settings.min_confidence <= settings.accuse_confidence <= 1:
        raise ConfigError(f"{source}: need 0 <= min_confidence <= accuse_confidence <= 1")
    if not settings.follow_suit >= 1:
        raise ConfigError(f"{source}: 'referee.follow_suit' must be at least 1 (1 weighs "
                          f"nothing), not {settings.follow_suit:g}")
    return RulesConfig(order, rules, settings, source)
