"""One module per subcommand (see cli.py)."""
