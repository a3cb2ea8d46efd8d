"""How `trace` prints a scenario, for the loop model's scenarios and the browser's page scenarios
alike: its header, its seed and what it shows, wrapped to one width."""
import textwrap
from pathlib import Path

WIDTH = 100


def wrapped(text: str, first: str, rest: str) -> str:
    return textwrap.fill(text, WIDTH, initial_indent=first, subsequent_indent=rest)


def print_intro(s: dict, kind: str) -> None:
    """`kind`: what runs it (the module kind, or `page`)."""
    runs = s["runs"]
    print(f"\n── {s['name']} ({kind}, {runs} run{'s' if runs != 1 else ''})  {Path(s['file']).name}")
    if s["seed"]:
        print(wrapped(f"seed: {s['seed']}", "   ", "         "))
    if s["analysis"]:
        print(wrapped(s["analysis"], "   ", "   "))
