"""The scrapy command line, for `npm run bench`: `python3 run_scrapy.py runspider ...` or `... crawl NAME`.

The bench's hosts have names (`m01.localhost`) so that Scrapy keys its download slots on one name per
server. This answers those names from the table in CRAWL_BENCH_RESOLVE (JSON: name -> 127.0.0.x), as
/etc/hosts would, and refuses every other name that is not an IP literal or `localhost`, so that no DNS
query leaves the machine. The Node twin is bench/lib/resolvePreload.mjs.
"""
import ipaddress
import json
import os
import socket
import sys

TABLE = {k.lower(): v for k, v in json.loads(os.environ.get("CRAWL_BENCH_RESOLVE", "{}")).items()}
_getaddrinfo = socket.getaddrinfo
_gethostbyname = socket.gethostbyname
_gethostbyname_ex = socket.gethostbyname_ex


def _answer(host):
    """The table's address, None for the system's own answer (IP literals, localhost), or an error."""
    name = host.decode() if isinstance(host, bytes) else str(host)
    name = name.lower()
    if name in TABLE:
        return TABLE[name]
    try:
        ipaddress.ip_address(name)
        return None
    except ValueError:
        pass
    if name == "localhost":
        return None
    raise socket.gaierror(socket.EAI_NONAME, f"{name}: the bench resolves only its own host names")


def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
    address = _answer(host) if host is not None else None
    return _getaddrinfo(address or host, port, family, type, proto, flags)


def gethostbyname(host):
    return _answer(host) or _gethostbyname(host)


def gethostbyname_ex(host):
    address = _answer(host)
    return (host, [], [address]) if address else _gethostbyname_ex(host)


socket.getaddrinfo = getaddrinfo
socket.gethostbyname = gethostbyname
socket.gethostbyname_ex = gethostbyname_ex

from scrapy.cmdline import execute  # noqa: E402  (after the resolver is in place)

sys.argv[0] = "scrapy"
execute()
