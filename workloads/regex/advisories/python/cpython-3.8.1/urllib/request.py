# Excerpt of CPython 3.8.1's Lib/urllib/request.py (PSF licence): AbstractBasicAuthHandler's realm
# regex of CVE-2020-8492 (bpo-39503), fixed in 3.8.2 (and found vulnerable again: CVE-2021-3733).
import re


class AbstractBasicAuthHandler:

    # XXX this allows for multiple auth-schemes, but will stupidly pick
    # the last one with a realm specified.

    # allow for double- and single-quoted realm values
    # (single quotes are a violation of the RFC, but appear in the wild)
    rx = re.compile('(?:.*,)*[ \t]*([^ \t]+)[ \t]+'
                    'realm=(["\']?)([^"\']*)\\2', re.I)

    # XXX could pre-emptively send auth info already accepted (RFC 2617,
    # end of section 2, and section 1.2 immediately after "credentials"
    # production).

    def __init__(self, password_mgr=None):
        self.passwd = password_mgr
        self.add_password = self.passwd.add_password
