"""The engine shared by every game: protocol, chance, options, records, registry."""

from ranchhand.core.chance import ChanceOutcomes
from ranchhand.core.errors import (
    ActionError,
    AmbiguousAction,
    DataError,
    GameDefinitionError,
    IllegalAction,
    InvalidAction,
    OptionError,
    RanchhandError,
    RecordError,
    StateError,
)
from ranchhand.core.game import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    GameInfo,
    Observation,
    Outcome,
    State,
)
from ranchhand.core.options import Option
from ranchhand.core.records import Record, replay
from ranchhand.core.runner import GameResult, derive_seed, play

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "ActionError",
    "AmbiguousAction",
    "ChanceOutcomes",
    "DataError",
    "Game",
    "GameDefinitionError",
    "GameInfo",
    "GameResult",
    "IllegalAction",
    "InvalidAction",
    "Observation",
    "Option",
    "OptionError",
    "Outcome",
    "RanchhandError",
    "Record",
    "RecordError",
    "State",
    "StateError",
    "derive_seed",
    "play",
    "replay",
]
