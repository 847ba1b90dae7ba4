"""How often a caller may ask: API requests per key and per address (DRF throttles), and
guesses of a secret (a password at the login form, an API key) per source, refused for a while
once too many failed. Rates are settings (`THROTTLE_RATES`, read from the environment), counts
live in Django's cache (Redis when REDIS_URL is set, so every web process shares them)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import AnonRateThrottle, BaseThrottle, SimpleRateThrottle

from apps.graph.scope import Scope

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def rate_of(name: str) -> tuple[int, int]:
    """(requests, seconds) of a rate like "10/minute" or "20/hour"."""
    count, period = settings.THROTTLE_RATES[name].split("/")
    return int(count), PERIODS[period.strip()[0]]


class KeyRateThrottle(SimpleRateThrottle):
    """Requests per API key (or per logged-in person for the schema pages)."""

    scope = "key"

    def get_rate(self):
        return settings.THROTTLE_RATES[self.scope]

    def get_cache_key(self, request, view):
        if isinstance(request.auth, Scope):
            ident = request.auth.actor
        elif getattr(request.user, "is_authenticated", False):
            ident = f"user:{request.user.pk}"
        else:
            return None  # anonymous: AddressRateThrottle counts it
        return self.cache_format % {"scope": self.scope, "ident": _digest(ident)}


class AddressRateThrottle(AnonRateThrottle):
    """Anonymous requests per client address (counted by apps.tenants.auth.HasApiKey)."""

    scope = "anonymous"

    def get_rate(self):
        return settings.THROTTLE_RATES[self.scope]


def client_address(request) -> str:
    """The caller's address, through settings.REST_FRAMEWORK["NUM_PROXIES"] trusted proxies."""
    return BaseThrottle().get_ident(request)


def _digest(ident: str) -> str:
    return hashlib.sha256(ident.encode("utf-8", "replace")).hexdigest()[:32]


def _attempts_key(kind: str, ident: str) -> str:
    return f"attempts:{kind}:{_digest(ident)}"


def attempts_exhausted(kind: str, ident: str) -> bool:
    """True while `ident` has failed `kind` (a THROTTLE_RATES name) as often as the rate allows."""
    limit, _ = rate_of(kind)
    return (cache.get(_attempts_key(kind, ident)) or 0) >= limit


def attempt_failed(kind: str, ident: str) -> None:
    """Count one failure; the count starts its window at the first failure."""
    key = _attempts_key(kind, ident)
    _, window = rate_of(kind)
    if not cache.add(key, 1, timeout=window):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=window)
