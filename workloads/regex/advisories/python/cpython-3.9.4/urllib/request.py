# Excerpt of CPython 3.9.4's Lib/urllib/request.py (PSF licence): AbstractBasicAuthHandler's realm
# regex after the fix of CVE-2020-8492, itself vulnerable: CVE-2021-3733 (bpo-43075), fixed in 3.9.5
# as ([^ \t,]+) for the scheme.
import re


class AbstractBasicAuthHandler:

    # XXX this allows for multiple auth-schemes, but will stupidly pick
    # the last one with a realm specified.

    # allow for double- and single-quoted realm values
    # (single quotes are a violation of the RFC, but appear in the wild)
    rx = re.compile('(?:^|,)'   # start of the string or ','
                    '[ \t]*'    # optional whitespaces
                    '([^ \t]+)' # scheme like "Basic"
                    '[ \t]+'    # mandatory whitespaces
                    # realm=xxx
                    # realm='xxx'
                    # realm="xxx"
                    'realm=(["\']?)([^"\']*)\\2',
                    re.I)

    def __init__(self, password_mgr=None):
        self.passwd = password_mgr
        self.add_password = self.passwd.add_password
