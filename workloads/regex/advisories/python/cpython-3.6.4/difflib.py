# Excerpt of CPython 3.6.4's Lib/difflib.py (PSF licence): IS_LINE_JUNK's default pattern of
# CVE-2018-1061 (bpo-32981), replaced in 3.6.5 by a test without a regex.
import re


def IS_LINE_JUNK(line, pat=re.compile(r"\s*#?\s*$").match):
    r"""
    Return 1 for ignorable line: iff `line` is blank or contains a single '#'.
    """

    return pat(line) is not None


def IS_CHARACTER_JUNK(ch, ws=" \t"):
    return ch in ws
