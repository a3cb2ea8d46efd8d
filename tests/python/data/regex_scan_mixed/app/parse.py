import re
import re as rx
from re import compile as build, IGNORECASE

NESTED = r"^(a+)+$"
WORD = "[a-z]" + "+"

nested = re.compile(NESTED)
words = build(WORD, IGNORECASE)
verbose = rx.match(r"^\d+ $", text, rx.X)
joined = re.compile("|".join(["cat", "dog"]))


def dynamic(name):
    return re.compile(name)
