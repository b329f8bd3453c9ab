"""The search bot (``ismcts``) in Rocket Ranchers: it finds a win one move deep.

The strength figures (ismcts against greedy) are measured by a benchmark and
reported on the docs page, not timed here.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from ranchhand.bots.ismcts import ISMCTSBot, level
from ranchhand.games.rocket_ranchers.actions import Beam, Form, Occupy
from ranchhand.games.rocket_ranchers.game import RocketGame
from ranchhand.games.rocket_ranchers.state import RocketState

WIN_CELL = 5
"""b2, where the winning card lies."""


def _card(game: RocketGame, species: str, biome: str) -> str:
    """A card of ``species`` and ``biome`` in the 2-player deck."""
    box, _ = game.tables.deck_counts(2)
    prefix = f"{species}/{biome}/"
    return next(t for k, t in enumerate(game.tables.text) if box[k] and t.startswith(prefix))


def _last_turn() -> RocketState:
    """Seat 1 plays the last turn: the deck is empty and only one beam, I2, is face up.

    Seat 0 leads 7 to 0 (Kow from four biomes, Variety 12, minus 5 for holding every
    Space Cat). Seat 1's Bako corral shows two biomes; the one card in the display,
    a Bako from a third biome, makes it Variety 8 and wins, if a beam takes it and it
    goes face up into that corral. Every other card founds a corral of seat 0.
    """
    game = RocketGame(2)
    kow = [_card(game, "kow", b) for b in ("desert", "grassland", "jungle", "mountains")]
    bako = [_card(game, "bako", b) for b in ("desert", "grassland")]
    prize = _card(game, "bako", "jungle")
    box, cats = game.tables.deck_counts(2)
    placed = {*kow, *bako, prize}
    rest = [t for k, t in enumerate(game.tables.text) if box[k] and t not in placed]
    display = ["empty"] * 16
    display[WIN_CELL] = prize
    return game.setup(
        {
            "player": 1,
            "turn": 27,
            "display": display,
            "players": [
                {
                    "corrals": [
                        {"founder": rest[0], "face_up": kow},
                        *({"founder": t} for t in rest[2:]),
                    ],
                    "floof": cats,
                },
                {
                    "corrals": [{"founder": rest[1], "face_up": bako}],
                    "beams_up": ["I2"],
                    "dogship_up": False,
                },
            ],
        }
    )


def _play(state: RocketState, bot: ISMCTSBot, rng: random.Random) -> list[Hashable]:
    """Seat 1's turn as the bot plays it."""
    chosen: list[Hashable] = []
    while state.current_player() == 1:
        action = bot.act(state.observe(1), state.legal_actions(), rng)
        chosen.append(action)
        state.apply(action)
    return chosen


def test_the_constructed_last_turn() -> None:
    state = _last_turn()
    assert state.deck_size == 0
    assert [s.total for s in state.observe(1).scores()] == [7, 0]
    assert len(state.legal_actions()) == 25  # 24 placements of I2 and a reboot
    winning = state.clone()
    winning.apply_text("beam I2 r0 @a2")
    winning.apply_text("occupy bako/jungle in 1")
    assert winning.is_terminal() and winning.outcome().winners == (1,)
    losing = state.clone()
    losing.apply_text("beam I2 r0 @c2")
    assert losing.is_terminal() and losing.outcome().winners == (0,)


def test_ismcts_finds_the_winning_beam_and_placement() -> None:
    game = _last_turn().game
    for seed in range(3):
        state = _last_turn()
        bot = ISMCTSBot(game, **{**level(game.id, "normal"), "time_cap": None})
        beam, *placing = _play(state, bot, random.Random(seed))
        assert isinstance(beam, Beam)
        assert WIN_CELL in state.tables.placement_of[beam].cells, beam
        assert all(isinstance(a, Occupy) for a in placing) and placing
        assert not any(isinstance(a, Form) for a in placing)
        assert state.is_terminal() and state.outcome().winners == (1,)
