"""The designer's lab: Ludii's metrics and the lab's own, tests of significance, sweeps,
tuning, impact per card and action, a results store, reports and export.

``trace`` plays a game and keeps what the metrics need (``evaluation``: whose evaluation
Ludii's metrics read), ``ludii`` and ``flow`` reduce one game's moves and standings,
``metrics`` reduces stored games to figures with 95% intervals (``estimate``),
``significance`` tests seats and compares cells, ``impact`` names actions and measures
their lift, ``ladder`` reads an arena run, ``store`` keeps runs and games in SQLite,
``cells`` plays the games a store lacks (on the local process pool or on Ray,
``backends``), ``sweep`` builds a grid of settings, ``tune`` races settings against
targets, ``report`` with ``plots`` writes one offline HTML page, and ``export`` writes
one flat row per game. See docs/lab.md.
"""
