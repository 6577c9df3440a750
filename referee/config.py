"""The typed configuration of the rules, read once from ``config.yaml`` by the entry points.

Only the sections the rules need are read here (``table``, ``match``, ``referee``); other
top-level sections belong to the vision stages, which read their own. Unknown keys inside these
sections are errors, so a typo does not silently fall back to a default.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .match import MatchRules
from .seats import Direction, Seat, TableOrder

PROJECT_CONFIG = Path(__file__).resolve().parent.parent / "config.yaml"


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True, slots=True)
class RefereeSettings:
    """``min_confidence``: readings below it are asked for again, never acted on.
    ``accuse_confidence``: readings that would prove cheating must reach this."""

    min_confidence: float = 0.9
    accuse_confidence: float = 0.98


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

    table = section("table", {"dealer", "first_leader", "direction"})
    match = section("match", {"game_points", "games_to_win"})
    ref = section("referee", {"min_confidence", "accuse_confidence"})
    try:
        order = TableOrder(
            Seat(int(table.get("dealer", 2))),
            Seat(int(table.get("first_leader", 1))),
            Direction(str(table.get("direction", "clockwise")).lower()),
        )
        defaults = MatchRules()
        points = match.get("game_points")
        rules = MatchRules(
            tuple((int(p["from"]), int(p["games"])) for p in points)
            if points is not None else defaults.game_points,
            int(match.get("games_to_win", defaults.games_to_win)),
        )
        base = RefereeSettings()
        settings = RefereeSettings(
            float(ref.get("min_confidence", base.min_confidence)),
            float(ref.get("accuse_confidence", base.accuse_confidence)),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ConfigError(f"{source}: {error}") from None
    if order.dealer == order.first_leader:
        raise ConfigError(f"{source}: the dealer does not lead the first trick")
    if not 0 <= settings.min_confidence <= settings.accuse_confidence <= 1:
        raise ConfigError(f"{source}: need 0 <= min_confidence <= accuse_confidence <= 1")
    return RulesConfig(order, rules, settings, source)
