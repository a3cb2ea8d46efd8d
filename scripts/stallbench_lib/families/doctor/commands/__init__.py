"""Command modules (NAME, HELP, add_arguments, run), found by cli.py."""
