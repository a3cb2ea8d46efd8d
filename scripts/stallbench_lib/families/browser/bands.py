"""web.dev's three bands of a metric (TBT, INP), without the report's plotting: `stallbench page`'s
summary reads them too, and its --help should not wait for matplotlib."""


def verdict(value, good, poor) -> str | None:
    """At or under `good` is good, over `poor` is poor, between needs improvement."""
    if value is None:
        return None
    return "good" if value <= good else "poor" if value > poor else "needs improvement"
