"""A queued player's client address as the rated queue compares it: two entries of one
address are never paired (a player's second account, or their puppet, must not feed them).

The address is the socket's peer (uvicorn puts a trusted proxy's ``X-Forwarded-For`` there).
An IPv6 address counts by its /64 network (:data:`IPV6_PREFIX`: one machine usually holds a
whole /64), an IPv4 address (or an IPv4-mapped IPv6 one) by itself.  The queue keeps only the
first 64 bits of a SHA-256 of it, for as long as the entry lives.  A loopback address, or
none the server can read, is not told apart (``""``): the server's own machine is no client
(the tests, local tools; a proxy whose ``X-Forwarded-For`` is not trusted, which then makes
every client one address, would otherwise pair nobody).
"""

from __future__ import annotations

import hashlib
import ipaddress

__all__ = ["IPV6_PREFIX", "address_key"]

IPV6_PREFIX = 64  # the bits of an IPv6 address that name its client


def address_key(host: str | None) -> str:
    """The address as the queue keeps it: 16 hex digits, or ``""`` (not told apart)."""
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return ""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback or address.is_unspecified:
        return ""
    if isinstance(address, ipaddress.IPv6Address):
        name = str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    else:
        name = str(address)
    return hashlib.sha256(name.encode()).hexdigest()[:16]
