"""Golden playthroughs: one seeded random game per game, written out as text.

Modelled on OpenSpiel's playthrough files: a change to the rules, the notation or the
observations changes these texts, so it is seen in review and made only on purpose
(``python tools/make_golden.py`` rewrites them).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from ranchhand.core import CHANCE
from ranchhand.core.registry import load

GOLDEN_DIR = Path(__file__).parent
PLAYTHROUGHS = [
    ("rancho", 3, 1),
    ("rocket-ranchers", 3, 1),
    ("glory-ranch", 3, 1),
    ("super-farmer", 3, 1),
]
MAX_STEPS = 150
SHOWN_ACTIONS = 12


def playthrough(game_id: str, players: int, seed: int) -> str:
    """The text of one seeded random game: observations, legal actions, actions, outcome."""
    game = load(game_id, players, max_turns=60)
    rng = random.Random(seed)
    state = game.new_initial_state()
    lines = [f"game: {game_id} players={players} seed={seed} options={json.dumps(game.options)}"]
    step = 0
    while not state.is_terminal() and step < MAX_STEPS:
        if state.current_player() == CHANCE:
            player, outcomes = CHANCE, state.chance_outcomes()
            action = outcomes.sample(rng)
            lines.append(f"{step} chance ({len(outcomes)} outcomes): {action}")
        else:
            player = state.acting_players()[0]
            legal = state.legal_actions(player)
            observation = json.dumps(state.observe(player).to_json(), sort_keys=True)
            shown = " | ".join(str(a) for a in legal[:SHOWN_ACTIONS])
            more = f" | ... {len(legal) - SHOWN_ACTIONS} more" if len(legal) > SHOWN_ACTIONS else ""
            action = legal[rng.randrange(len(legal))]
            lines.append(f"{step} observation P{player}: {observation}")
            lines.append(f"{step} legal P{player} ({len(legal)}): {shown}{more}")
            lines.append(f"{step} action P{player}: {action}")
        state.apply(action, player)
        step += 1
    outcome = state.outcome()
    lines.append(f"outcome: {None if outcome is None else json.dumps(outcome.to_json())}")
    lines.append(f"turns: {state.turn} steps: {step}")
    return "\n".join(lines) + "\n"
