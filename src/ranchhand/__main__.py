"""``python -m ranchhand`` runs the command line."""

from ranchhand.cli.main import main

main()
