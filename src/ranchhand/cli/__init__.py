"""The command line: play, simulate, replay, bench."""
