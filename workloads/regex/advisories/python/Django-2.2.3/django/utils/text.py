# Excerpt of Django 2.2.3's django/utils/text.py (BSD licence): the regexes of Truncator.chars() and
# Truncator.words() with html=True, CVE-2019-14232, fixed in 2.2.4 as r'<[^>]+?>|([^<>\s]+)' and
# r'<[^>]+?>|(.)'.
import html.entities
import re
import unicodedata
from gzip import GzipFile
from io import BytesIO

from django.utils.functional import SimpleLazyObject, keep_lazy_text, lazy
from django.utils.translation import gettext as _, gettext_lazy, pgettext


@keep_lazy_text
def capfirst(x):
    """Capitalize the first letter of a string."""
    return x and str(x)[0].upper() + str(x)[1:]


# Set up regular expressions
re_words = re.compile(r'<.*?>|((?:\w[-\w]*|&.*?;)+)', re.S)
re_chars = re.compile(r'<.*?>|(.)', re.S)
re_tag = re.compile(r'<(/)?([^ ]+?)(?:(\s*/)| .*?)?>', re.S)
re_newlines = re.compile(r'\r\n|\r')  # Used in normalize_newlines
re_camel_case = re.compile(r'(((?<=[a-z])[A-Z])|([A-Z](?![A-Z]|$)))')
