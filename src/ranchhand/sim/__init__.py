"""Simulation: many games in parallel, with honest statistics."""
