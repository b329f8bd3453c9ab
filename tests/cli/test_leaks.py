"""Secrets at a shared keyboard: what the terminal shows each seat, checked against the rules.

Random hot-seat games are played through the real prompt loop (``HumanSeat.choose``)
with every seat human, on a console that believes it is a terminal. Everything
written while seat A is at the keyboard (the board, the actions, the "since your
last turn" log, answers to ``help``, ``board``, ``actions`` and to typos) is one
segment; the test computes from the full state what seat A may not know at that
moment and asserts none of it is in A's segment:

- the game's seed (from it every hidden card and future draw can be computed);
- Glory Ranch: a card in another player's hand that A never saw in a public place
  (a ranch, the discard pile, their own hand), and a rock-paper-scissors sign chosen
  by the other player while A has yet to choose;
- Rocket Ranchers: which card another player laid face down to found a corral.

Each segment after a hand-off must also begin by wiping the screen and the
scrollback, so nothing of the previous seat can be scrolled back to.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Hashable
from typing import Any

import pytest
from rich.console import Console

from ranchhand.cli.play import WIPE, HumanSeat, Table
from ranchhand.core import CHANCE, SIMULTANEOUS, State, play
from ranchhand.core.registry import game_module, load

SEED = 8_234_519_376_401
COMMANDS = ("help", "board", "actions", "flibble", "", "target ²", "pick ¹:1")


class Seat(HumanSeat):
    """A person typing at random: mostly legal actions, sometimes a command or a typo."""

    def __init__(self, table: Table, watcher: Watcher, rng: random.Random) -> None:
        super().__init__(table, self._type)
        self.watcher, self.rng = watcher, rng
        self.answers: list[str] = []

    def _type(self, prompt: str) -> str:
        self.table.console.file.write(prompt)  # console.input writes its prompt too
        return self.answers.pop(0) if self.answers else "quit"

    def choose(self, state: State, player: int, undoable: int = 0) -> Hashable:
        legal = state.legal_actions(player)
        self.answers = [self.rng.choice(COMMANDS) for _ in range(self.rng.random() < 0.2)]
        self.answers.append(str(self.rng.choice(legal)))
        if len(self.table.humans) > 1 and self.table.last_human != player:
            self.answers.insert(0, "")  # Enter at the "pass the keyboard" screen
        self.watcher.begin(state, player)
        return super().choose(state, player, undoable)


class Watcher:
    """Cuts the terminal output into one segment per seat and checks each."""

    def __init__(self, table: Table, output: io.StringIO, seed: int) -> None:
        self.table, self.output, self.seed = table, output, seed
        self.game_id = table.game.id
        self.help_text = table.view.notation
        self.last: int | None = None
        self.start = 0
        self.forbidden: list[tuple[str, re.Pattern[str]]] = []
        self.known: dict[int, set[int]] = {}
        self.segments = 0

    def begin(self, state: State, player: int) -> None:
        self.finish()
        self.handoff = self.last is not None and self.last != player
        self.start = self.output.tell()
        self.last = player
        self.forbidden = [("the seed", re.compile(str(self.seed)))]
        self.forbidden += SECRETS[self.game_id](self, state, player)

    def finish(self) -> None:
        if self.last is None:
            return
        text = self.output.getvalue()[self.start :]
        self.segments += 1
        if self.handoff:
            assert text.startswith(WIPE), "a hand-off must wipe the screen and its scrollback"
            text = text[text.rindex(WIPE) :]
        for what, pattern in self.forbidden:
            found = pattern.search(text)
            assert found is None, f"P{self.last} was shown {what}: {found.group(0)!r}\n{text}"


def _glory(watcher: Watcher, state: Any, viewer: int) -> list[tuple[str, re.Pattern[str]]]:
    """Cards in other hands that ``viewer`` never saw in public or held; pending signs."""
    game = state.game
    _glory_track(watcher, state)
    seen = watcher.known[viewer]
    secret = {
        k
        for other in range(game.players)
        if other != viewer
        for k, c in enumerate(state.hands[other])
        if c and k not in seen
    }
    forbidden = []
    for k in secret:
        card = game.deck.cards[k]
        for word in (card.id, card.name):
            if re.search(rf"\b{re.escape(word)}\b", watcher.help_text):
                continue  # an example of the notation, printed for everyone
            forbidden.append(
                (f"{card.name} in another hand", re.compile(rf"\b{re.escape(word)}\b"))
            )
    if state.current_player() == SIMULTANEOUS:
        for other, sign in state.signs.items():
            if other != viewer:
                pattern = re.compile(rf"P{other} [a-z]+: choose {sign}")
                forbidden.append((f"P{other}'s pending sign", pattern))
    return forbidden


def _glory_track(watcher: Watcher, state: Any) -> None:
    """After every action: what each seat has held, and what lay in public."""
    public = {k for ranch in state.ranches for k in ranch}
    public.update(k for k, c in enumerate(state.discard) if c)
    for seat, hand in enumerate(state.hands):
        seen = watcher.known.setdefault(seat, set())
        seen.update(public)
        seen.update(k for k, c in enumerate(hand) if c)


def _rocket(watcher: Watcher, state: Any, viewer: int) -> list[tuple[str, re.Pattern[str]]]:
    """The cards other players laid face down: no text may say which they were."""
    forbidden = []
    for other in range(state.game.players):
        if other != viewer and state.corrals[other]:
            pattern = re.compile(rf"P{other} [a-z]+: form [a-z]+/[a-z]+/\d")
            forbidden.append((f"P{other}'s face-down founding card", pattern))
    return forbidden


def _rancho(watcher: Watcher, state: Any, viewer: int) -> list[tuple[str, re.Pattern[str]]]:
    return []  # perfect information: only the seed is secret


SECRETS = {"glory-ranch": _glory, "rocket-ranchers": _rocket, "rancho": _rancho}


@pytest.mark.parametrize(
    ("game_id", "players", "games"),
    [("glory-ranch", 2, 4), ("glory-ranch", 4, 2), ("rocket-ranchers", 3, 2), ("rancho", 2, 2)],
)
def test_nothing_a_seat_may_not_know_reaches_its_screen(
    game_id: str, players: int, games: int
) -> None:
    view = game_module(game_id).VIEW
    for index in range(games):
        game = load(game_id, players, max_turns=60)
        output = io.StringIO()
        console = Console(file=output, width=100, force_terminal=True, color_system=None)
        names = ["human"] * players
        table = Table(console, view, game, set(range(players)), names)
        watcher = Watcher(table, output, SEED + index)
        rng = random.Random(f"{game_id}-{players}-{index}")
        seats = [Seat(table, watcher, rng) for _ in range(players)]
        console.print(f"{game.name} with {players} players.")

        def listen(state: State, player: int, action: Hashable, watcher: Watcher = watcher) -> None:
            if game_id == "glory-ranch":  # what each seat knows before and after the action
                _glory_track(watcher, state)
                top = state.stack[-1] if state.stack else None  # type: ignore[attr-defined]
                if player == CHANCE and top is not None and top[0] == "draw":
                    drawn = state.game.index[action.card]  # type: ignore[attr-defined]
                    watcher.known.setdefault(top[1], set()).add(drawn)  # they saw what they drew
                after = state.clone()
                after.apply(action, player)
                _glory_track(watcher, after)
            watcher.table.note(state, player, action)

        result = play(game, seats, SEED + index, listener=listen, seat_names=names)
        watcher.finish()
        assert result.outcome is not None
        assert watcher.segments > 5
