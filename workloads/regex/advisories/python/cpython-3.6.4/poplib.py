# Excerpt of CPython 3.6.4's Lib/poplib.py (PSF licence): the APOP timestamp regex of
# CVE-2018-1060 (bpo-32981), fixed in 3.6.5 as br'\+OK.[^<]*(<.*>)'.
import errno
import re
import socket


class POP3:

    encoding = 'UTF-8'

    def __init__(self, host, port=110, timeout=socket._GLOBAL_DEFAULT_TIMEOUT):
        self.host = host
        self.port = port

    timestamp = re.compile(br'\+OK.*(<[^>]+>)')

    def apop(self, user, password):
        secret = bytes(password, self.encoding)
        m = self.timestamp.match(self.welcome)
        if not m:
            raise error_proto('-ERR APOP not supported by server')
