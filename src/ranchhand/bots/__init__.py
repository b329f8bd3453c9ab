"""Bots: players that choose from the legal actions given an observation."""

from ranchhand.bots.base import Bot
from ranchhand.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
