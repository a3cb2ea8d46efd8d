"""stallbench completion bash: a completion script made from the command's own parser, so a new
subcommand, option or choice completes without editing anything."""
import argparse

from .. import cli

NAME = "completion"
ORDER = 90
HELP = "print a bash completion script (eval \"$(scripts/stallbench completion bash)\")"


def add_arguments(p):
    p.add_argument("shell", choices=["bash"], help="the shell to complete in")


# argparse has no public way to walk a parser: its `_actions` are what it parses with.
def _words(parser: argparse.ArgumentParser) -> tuple[list[str], dict[str, list[str]]]:
    """The parser's option strings, and each option's choices when it has them."""
    options, choices = [], {}
    for action in parser._actions:
        options += action.option_strings
        if action.option_strings and action.choices:
            for option in action.option_strings:
                choices[option] = [str(c) for c in action.choices]
    return options, choices


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next((a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction)), {})


def bash(parser: argparse.ArgumentParser) -> str:
    top, _ = _words(parser)  # --help, --version
    commands = _subcommands(parser)
    values, words = [], []
    for name, sub in commands.items():
        options, choices = _words(sub)
        positional = [str(c) for a in sub._actions if not a.option_strings and a.choices for c in a.choices]
        words.append(f"    {name}) options=\"{' '.join(options)}\" positional=\"{' '.join(positional)}\" ;;")
        values += [f"    \"{name} {option}\") COMPREPLY=($(compgen -W \"{' '.join(c)}\" -- \"$cur\")); return ;;"
                   for option, c in choices.items()]
    return "\n".join([
        "# bash completion for stallbench, generated from its parser by `stallbench completion bash`.",
        "_stallbench() {",
        "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} options=\"\" positional=\"\"",
        "  if ((COMP_CWORD == 1)); then",
        f"    COMPREPLY=($(compgen -W \"{' '.join([*commands, *top])}\" -- \"$cur\")); return",
        "  fi",
        "  case \"${COMP_WORDS[1]} $prev\" in",
        *values,
        "  esac",
        "  case ${COMP_WORDS[1]} in",
        *words,
        "  esac",
        "  if [[ $cur == -* ]]; then",
        "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
        "  elif [[ -n $positional ]]; then",
        "    COMPREPLY=($(compgen -W \"$positional\" -- \"$cur\"))",
        "  else",
        "    COMPREPLY=($(compgen -f -- \"$cur\"))",
        "  fi",
        "}",
        "complete -F _stallbench stallbench scripts/stallbench ./scripts/stallbench",
        ""])


def run(args) -> int:
    print(bash(cli.make_parser()), end="")
    return 0
