"""Super Farmer: the classic dice-and-exchange game behind Rancho, for 1 to 6 farmers.

The package exposes ``GAME`` (the rules), ``BOTS`` (the greedy and daring strategies,
the solved solitaire's ``optimal``, and ``racer``, which races other farmers with it;
"random" is shared by every game), ``LEVELS`` (the bots a person meets at ``normal``
and ``hard``: the racer reading the others' deadline through exponentials, and reading
its next turns exactly; both win more than the shared search in far less time) and
``VIEW`` (the terminal view).
"""

from ranchhand.games.super_farmer.bots import DaringBot, GreedyBot
from ranchhand.games.super_farmer.game import SuperFarmerGame
from ranchhand.games.super_farmer.levels import LEVELS
from ranchhand.games.super_farmer.optimal import OptimalBot
from ranchhand.games.super_farmer.racer import RacerBot
from ranchhand.games.super_farmer.view import VIEW

GAME = SuperFarmerGame
BOTS: dict[str, type] = {
    "greedy": GreedyBot,
    "daring": DaringBot,
    "optimal": OptimalBot,
    "racer": RacerBot,
}
__all__ = ["BOTS", "GAME", "LEVELS", "VIEW"]
