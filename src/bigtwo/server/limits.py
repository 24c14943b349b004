"""Rate limits keyed by who acts, not by the connection they act through.

A limit held by a connection is reset by reconnecting, which costs an attacker nothing; so
the server keeps its token buckets here, under a key naming the actor: a client address, a
seat at a table (which its token proves), or whatever the caller names. :class:`KeyedLimiter`
holds one bucket per key for keys seen recently, in bounded memory: when it holds
``max_keys`` keys, the one used longest ago is forgotten (never everyone at once), so a flood
of new keys forgets only the quietest actors, who start again with a full bucket. It knows
nothing of tables, messages or HTTP; the hub and the lobby decide what a key is.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Hashable


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; :meth:`take` says whether one was left."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        self.rate, self.burst, self.tokens = rate, burst, burst
        self.stamp = time.monotonic() if now is None else now

    def take(self, now: float) -> bool:
        return self.wait(now) == 0.0

    def wait(self, now: float) -> float:
        """Take a token and answer 0.0, or answer the seconds until there is one."""
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate if self.rate > 0 else float("inf")


class KeyedLimiter:
    """One :class:`TokenBucket` (``rate`` a second, ``burst`` at most) per key, for at most
    ``max_keys`` keys, the longest unused forgotten first.

    >>> limiter = KeyedLimiter(rate=1.0, burst=2.0, max_keys=2)
    >>> [limiter.allow("ann", now=0.0) for _ in range(3)]
    [True, True, False]
    >>> limiter.allow("bob", now=0.0), limiter.allow("cy", now=0.0), "ann" in limiter
    (True, True, False)
    """

    __slots__ = ("rate", "burst", "max_keys", "_buckets")

    def __init__(self, rate: float, burst: float, max_keys: int = 10_000) -> None:
        if rate <= 0 or burst < 1 or max_keys < 1:
            raise ValueError("a limit needs a positive rate, a burst of at least 1, and room")
        self.rate, self.burst, self.max_keys = rate, burst, max_keys
        self._buckets: OrderedDict[Hashable, TokenBucket] = OrderedDict()

    def bucket(self, key: Hashable, now: float | None = None) -> TokenBucket:
        """The key's bucket (a full one for a key not seen recently)."""
        found = self._buckets.get(key)
        if found is not None:
            self._buckets.move_to_end(key)
            return found
        while len(self._buckets) >= self.max_keys:
            self._buckets.popitem(last=False)
        made = self._buckets[key] = TokenBucket(self.rate, self.burst, now)
        return made

    def allow(self, key: Hashable, now: float | None = None) -> bool:
        """Take one token from the key's bucket; False when it has none left now."""
        return self.wait(key, now) == 0.0

    def wait(self, key: Hashable, now: float | None = None) -> float:
        """Take one token from the key's bucket and answer 0.0, or answer the seconds until
        it has one."""
        when = time.monotonic() if now is None else now
        return self.bucket(key, when).wait(when)

    def ready(self, key: Hashable, now: float | None = None) -> float:
        """The seconds until the key's bucket has a token (0.0: it has one), taking none.

        >>> limiter = KeyedLimiter(rate=0.5, burst=1.0)
        >>> limiter.ready("ann", now=0.0), limiter.wait("ann", now=0.0), limiter.ready("ann", now=1.0)
        (0.0, 0.0, 1.0)
        """
        found = self._buckets.get(key)
        if found is None:
            return 0.0
        when = time.monotonic() if now is None else now
        tokens = min(found.burst, found.tokens + max(0.0, when - found.stamp) * found.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / found.rate

    def __contains__(self, key: Hashable) -> bool:
        return key in self._buckets

    def __len__(self) -> int:
        return len(self._buckets)
