"""What a running program and its helpers (one process group) use, read from /proc: CPU seconds,
the time their threads waited for a core, resident memory, the TCP addresses they listen on; and the
whole machine's CPU ticks."""
import ipaddress
import os
from dataclasses import dataclass

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def pids(pgid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getpgid(int(entry)) == pgid:
                    found.append(int(entry))
            except (ProcessLookupError, PermissionError):
                continue
    return found


def _stat_fields(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rpartition(")")[2].split()  # after the command name, which may hold spaces


def cpu_seconds(pgid: int) -> float:
    """User + system CPU of every live process of the group (utime, stime: fields 14 and 15)."""
    total = 0
    for pid in pids(pgid):
        try:
            fields = _stat_fields(pid)
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            continue
    return total / CLOCK_TICKS


def core_wait_seconds(pgid: int) -> float | None:
    """Seconds the threads of every live process of the group spent runnable but waiting for a core
    (the second field of each thread's /proc/PID/task/TID/schedstat); None where the kernel keeps none."""
    total, read = 0, False
    for pid in pids(pgid):
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                    total += int(f.read().split()[1])
                read = True
            except (OSError, IndexError, ValueError):
                continue
    return total / 1e9 if read else None


def rss_bytes(pgid: int) -> int:
    """Resident memory of every live process of the group, now (statm's second field)."""
    total = 0
    for pid in pids(pgid):
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * PAGE_BYTES
        except (OSError, IndexError, ValueError):
            continue
    return total


def _socket_inodes(pgid: int) -> set[str]:
    inodes = set()
    for pid in pids(pgid):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
        except OSError:
            continue
    return inodes


def _address(hex_address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    raw = bytes.fromhex(hex_address)
    # /proc/net/tcp{,6} print each 32-bit word of the address in the machine's (little-endian) order.
    address = ipaddress.ip_address(b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4)))
    return getattr(address, "ipv4_mapped", None) or address


@dataclass(frozen=True)
class Listening:
    address: str
    port: int


def listening(pgid: int) -> list[Listening]:
    """The TCP sockets the group listens on."""
    inodes = _socket_inodes(pgid)
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                lines = f.readlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                host, port = fields[1].split(":")
                found.append(Listening(str(_address(host)), int(port, 16)))
    return found


@dataclass(frozen=True)
class MachineTicks:
    busy: int
    total: int


def machine_ticks() -> MachineTicks | None:
    try:
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return MachineTicks(sum(values) - idle, sum(values))


def machine_util(start: MachineTicks | None, end: MachineTicks | None) -> float | None:
    if start is None or end is None or end.total <= start.total:
        return None
    return (end.busy - start.busy) / (end.total - start.total)
