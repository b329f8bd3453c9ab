"""The phases of a Rocket Ranchers turn, as small integers and their names.

``fill``: chance draws cards into the empty display cells (setup and refill);
``start``: the player uses a beam, reboots, or first uses the dogship;
``place``: the player puts each collected Wildlife card in a corral;
``after``: after the refill the player may still use the dogship, or ends the turn.
"""

FILL, START, PLACE, AFTER = range(4)
PHASES = ("fill", "start", "place", "after")
