"""The engine's bookkeeping, on a toy game that has chance and simultaneous choices."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from ranchhand.bots import RandomBot
from ranchhand.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    IllegalAction,
    InvalidAction,
    OptionError,
    Record,
    RecordError,
    play,
    replay,
)
from ranchhand.core.records import replay_steps
from ranchhand.core.registry import register
from tests.core.toy import Bet, Roll, ToyGame

register("toy", "tests.core.toy")


def test_chance_node_lists_exact_probabilities() -> None:
    state = ToyGame(2).new_initial_state()
    assert state.current_player() == CHANCE
    probabilities = dict(state.chance_outcomes().probabilities())
    assert probabilities == {
        Roll(1): Fraction(1, 4),
        Roll(2): Fraction(1, 2),
        Roll(3): Fraction(1, 4),
    }
    assert sum(probabilities.values()) == 1


def test_simultaneous_node_waits_for_every_player_and_hides_choices() -> None:
    state = ToyGame(2).new_initial_state()
    state.apply(Roll(3))
    assert state.current_player() == SIMULTANEOUS
    assert state.acting_players() == (0, 1)
    state.apply(Bet("odd"), 1)
    assert state.acting_players() == (0,)
    assert state.observe(0).my_bet is None  # player 0 cannot see player 1's bet
    state.apply(Bet("even"), 0)
    assert state.scores == [0, 3]
    assert state.turn == 1


def test_illegal_action_names_reason_and_changes_nothing() -> None:
    state = ToyGame(2).new_initial_state()
    state.apply(Roll(2))
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalAction, match="not a bet"):
        state.apply(Roll(1), 0)
    with pytest.raises(IllegalAction, match="several players choose at once"):
        state.apply(Bet("odd"))
    assert json.dumps(state.to_json()) == before


def test_parse_errors_suggest_close_legal_texts() -> None:
    state = ToyGame(2).new_initial_state()
    state.apply(Roll(2))
    with pytest.raises(InvalidAction) as caught:
        state.parse_action("bt odd", 0)
    assert "bet odd" in caught.value.suggestions
    assert "toy, turn 0, player 0" in str(caught.value)
    with pytest.raises(IllegalAction) as caught:
        state.parse_action("bet sideways", 0)
    assert caught.value.suggestions


def test_acting_after_the_end_raises() -> None:
    game = ToyGame(2, target=1)
    state = game.new_initial_state()
    state.apply(Roll(1))
    state.apply(Bet("odd"), 0)
    state.apply(Bet("odd"), 1)
    assert state.current_player() == TERMINAL
    assert state.outcome() is not None and state.outcome().winners == (0, 1)
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(Roll(1))


def test_max_turns_truncates() -> None:
    game = ToyGame(2, target=50, max_turns=3)
    result = play(game, [RandomBot(), RandomBot()], seed=1)
    assert result.outcome.truncated
    assert result.turns == 3
    assert result.outcome.returns(2) == [0.0, 0.0]


def test_options_are_validated_with_allowed_values() -> None:
    with pytest.raises(
        OptionError, match="unknown option 'colour'; options are: max_turns, target"
    ):
        ToyGame(2, colour="red")
    with pytest.raises(OptionError, match="above the maximum 50"):
        ToyGame(2, target=99)
    with pytest.raises(OptionError, match="allowed: 2 to 3"):
        ToyGame(4)
    assert ToyGame(2, target="7").options["target"] == 7


@pytest.mark.parametrize("seed", range(5))
def test_record_replays_and_json_round_trips(seed: int) -> None:
    game = ToyGame(3)
    result = play(game, [RandomBot()] * 3, seed=seed, record=True, seat_names=["random"] * 3)
    assert result.record is not None
    text = json.dumps(result.record.to_json())
    again = Record.from_json(json.loads(text))
    final = replay(again)
    assert final.outcome() == result.outcome
    assert game.state_from_json(final.to_json()).to_json() == final.to_json()


def test_same_seed_same_game() -> None:
    game = ToyGame(2)
    first = play(game, [RandomBot()] * 2, seed=7, record=True)
    second = play(game, [RandomBot()] * 2, seed=7, record=True)
    assert first.record and second.record
    assert first.record.steps == second.record.steps


def test_corrupt_record_names_the_diverging_step() -> None:
    game = ToyGame(2)
    result = play(game, [RandomBot()] * 2, seed=3, record=True)
    assert result.record is not None
    data = result.record.to_json()
    data["actions"][1] = [0, "roll 2"]
    with pytest.raises(RecordError, match="step 1"):
        replay(Record.from_json(data))


def test_replay_steps_yields_each_state_before_its_action() -> None:
    game = ToyGame(2)
    result = play(game, [RandomBot()] * 2, seed=4, record=True)
    assert result.record is not None
    steps = list(replay_steps(result.record))
    assert len(steps) == len(result.record.steps) + 1
    assert steps[-1][1] is None


def test_clone_is_independent() -> None:
    state = ToyGame(2).new_initial_state()
    twin = state.clone()
    twin.apply(Roll(1))
    assert state.current_player() == CHANCE
    assert twin.current_player() == SIMULTANEOUS


def test_random_bot_only_chooses_legal_actions() -> None:
    rng = random.Random(0)
    state = ToyGame(2).new_initial_state()
    state.apply(Roll(1))
    choice = RandomBot().act(state.observe(0), state.legal_actions(0), rng)
    assert state.is_legal(choice, 0)


def test_option_allowed_values_read_well() -> None:
    from ranchhand.core import Option

    assert Option("n", 0, "doc", minimum=0).allowed() == "an integer >= 0"
    assert Option("n", 1, "doc", minimum=1, maximum=9).allowed() == "an integer 1..9"
    assert Option("x", "a", "doc", choices=("a", "b")).allowed() == "a, b"
    assert Option("f", False, "doc", choices=(False, True)).allowed() == "false, true"


def test_a_game_that_breaks_the_protocol_is_told_so() -> None:
    from ranchhand.bots.base import Bot
    from ranchhand.core import GameDefinitionError, State

    state = ToyGame(2).new_initial_state()
    with pytest.raises(GameDefinitionError, match="does not list who acts"):
        State._acting_players(state)
    with pytest.raises(GameDefinitionError, match="does not list its outcomes"):
        State._chance_outcomes(state)
    with pytest.raises(TypeError):
        Bot()  # type: ignore[abstract]
