"""The designer's lab: balance and flow metrics, option sweeps, a results store, reports.

``trace`` plays a game and keeps what the metrics need, ``flow`` reads the lead from a
game's standings, ``metrics`` reduces stored games to figures with 95% intervals,
``store`` keeps runs and games in SQLite, ``cells`` plays the games a store lacks (on
the local process pool or on Ray, ``backends``), ``sweep`` builds a grid of option
settings, and ``report`` with ``plots`` writes one offline HTML page. See docs/lab.md.
"""
