"""On the PYTHONPATH of a command a test starts, so that a test of refusal can never send a packet:
a lookup of a name or a connection to an address that is not loopback fails, and is written to the
file $LOOPBACK_ONLY_LOG for the test to find. Python imports this module at start-up."""
import ipaddress
import os
import socket

_LOOPBACK_NAMES = {"localhost"}


def _loopback(host) -> bool:
    host = str(host).split("%")[0]
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _refuse(what: str):
    with open(os.environ["LOOPBACK_ONLY_LOG"], "a") as log:
        log.write(what + "\n")
    raise OSError(f"refused by the test's loopback-only guard: {what}")


_getaddrinfo = socket.getaddrinfo
_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex


def _guarded_getaddrinfo(host, *args, **kwargs):
    if host is not None and not _loopback(host):
        _refuse(f"lookup of {host}")
    return _getaddrinfo(host, *args, **kwargs)


def _check(sock, address):
    if sock.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(address[0]):
        _refuse(f"connection to {address[0]}")


def _guarded_connect(self, address):
    _check(self, address)
    return _connect(self, address)


def _guarded_connect_ex(self, address):
    _check(self, address)
    return _connect_ex(self, address)


if os.environ.get("LOOPBACK_ONLY_LOG"):
    socket.getaddrinfo = _guarded_getaddrinfo
    socket.socket.connect = _guarded_connect
    socket.socket.connect_ex = _guarded_connect_ex
