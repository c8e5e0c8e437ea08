"""The soak's checks, as functions of what it recorded. Each returns (passed, figures), the figures
being what the report prints for it (the numbers a failure is judged by)."""

import json
import statistics

RSS_GROWTH_LIMIT = 0.05
GAP_LIMIT_SECONDS = 2.0
LAST_SAMPLES = 3  # the end RSS: the median of the last loaded samples (30 s at one per 10 s)
SETTLED_KEYS = ("fds", "ownConnections", "ownClients", "ownMembers", "rooms", "queued", "preparing")
# What waits in a hand-over is transient: at the baseline it may hold a few items in flight, and at
# the end it must be empty, not equal to that snapshot.
DRAINED_KEYS = ("queued", "preparing")

# Log lines of an error level that the injected faults cause, and only those (none is known today:
# a Redis restart logs one warning, "redis unreachable, retrying", and a notice when linked again).
ALLOWED_ERROR_LINES = ()


def warmup_seconds(duration):
    """2 minutes, scaled for short runs: a sixth of the run, at least 30 s (30 s for the CI's 180 s)."""
    return min(120.0, max(30.0, duration / 6))


def rss_growth(samples, warmup, duration):
    """RSS at the first sample after the warm-up against the median of the last LAST_SAMPLES samples
    taken under load (t <= duration): the median, so that one sample taken as the allocator holds a
    burst does not decide; the first after the warm-up, as the spec asks."""
    loaded = [s for s in samples if warmup <= s["t"] <= duration and s["rssKiB"]]
    if len(loaded) < LAST_SAMPLES + 1:
        return False, {"error": f"only {len(loaded)} RSS samples after the warm-up"}
    first = loaded[0]["rssKiB"]
    last = statistics.median(s["rssKiB"] for s in loaded[-LAST_SAMPLES:])
    growth = last / first - 1
    return growth <= RSS_GROWTH_LIMIT, {
        "warmupEndKiB": first, "endKiB": last, "growthPercent": round(100 * growth, 2), "limitPercent": 100 * RSS_GROWTH_LIMIT,
        "peakKiB": max(s["rssKiB"] for s in loaded)}


def settled(baseline, end):
    """Every count back to its value before the churn began (queues and preparing rooms to 0)."""
    def expected(k):
        return 0 if k in DRAINED_KEYS else baseline.get(k)
    differ = {k: {"baseline": baseline.get(k), "end": end.get(k)} for k in SETTLED_KEYS if end.get(k) != expected(k)}
    return not differ, {"baseline": {k: baseline.get(k) for k in SETTLED_KEYS}, "end": {k: end.get(k) for k in SETTLED_KEYS},
                        "differ": differ}


def _outside(gap, windows):
    """The longest part of the interval `gap` outside every window (each (from, to))."""
    pieces = [gap]
    for lo, hi in windows:
        nxt = []
        for a, b in pieces:
            if b <= lo or a >= hi:
                nxt.append((a, b))
                continue
            if a < lo:
                nxt.append((a, lo))
            if b > hi:
                nxt.append((hi, b))
        pieces = nxt
    return max((b - a for a, b in pieces), default=0.0)


def follower_gaps(gaps, checked_from, windows, t0):
    """Every steady follower's gaps, less what fell before `checked_from` (the warm-up's end) or
    inside a fault window; a remainder over GAP_LIMIT_SECONDS fails. Times in the report are
    seconds from t0, the start of the load."""
    excluded = [(float("-inf"), checked_from)] + list(windows)
    bad = [(a, b, _outside((a, b), excluded)) for a, b in gaps]
    bad = [g for g in bad if g[2] > GAP_LIMIT_SECONDS]
    return not bad, {
        "gapsOver2s": len(gaps), "outsideFaults": len(bad),
        "longestOutsideSeconds": round(max((g[2] for g in bad), default=0.0), 2),
        "longestAnySeconds": round(max((b - a for a, b in gaps), default=0.0), 2),
        "examples": [{"from": round(a - t0, 2), "to": round(b - t0, 2)} for a, b, _ in bad[:10]]}


def error_lines(paths):
    """Lines of level error or critical in the hubs' JSON logs (and any line that is not JSON), less
    ALLOWED_ERROR_LINES; and how many warnings there were, by message."""
    errors, warnings = [], {}
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                try:
                    entry = json.loads(line)
                except ValueError:
                    errors.append(f"{path}: not JSON: {line.strip()[:200]}")
                    continue
                level, message = entry.get("level"), entry.get("message", "")
                if level in ("error", "critical") and not any(allowed in message for allowed in ALLOWED_ERROR_LINES):
                    errors.append(f"{path}: {line.strip()[:300]}")
                elif level == "warning":
                    warnings[message] = warnings.get(message, 0) + 1
    return not errors, {"errors": errors[:20], "errorCount": len(errors), "warnings": warnings}


def self_check():
    """The checks against made-up records whose verdicts are known (`python3 scripts/soak_checks.py`)."""
    assert _outside((10, 20), []) == 10
    assert _outside((10, 20), [(12, 15)]) == 5  # 15..20 is left
    assert _outside((10, 20), [(5, 25)]) == 0
    assert _outside((10, 20), [(8, 11), (19, 30)]) == 8
    ok, figures = follower_gaps([(100.0, 103.0)], checked_from=50, windows=[(99, 102)], t0=0)
    assert ok and figures["outsideFaults"] == 0, figures  # 1 s outside the window: fine
    ok, figures = follower_gaps([(100.0, 103.5)], checked_from=50, windows=[(101, 102)], t0=0)
    assert ok and figures["outsideFaults"] == 0, figures  # 1 s before the window and 1.5 s after: each under 2 s
    ok, figures = follower_gaps([(100.0, 106.0)], checked_from=50, windows=[(101, 102)], t0=0)
    assert not ok and figures["longestOutsideSeconds"] == 4.0, figures
    ok, figures = follower_gaps([(100.0, 105.0)], checked_from=50, windows=[], t0=0)
    assert not ok and figures["examples"] == [{"from": 100.0, "to": 105.0}], figures
    ok, _ = follower_gaps([(10.0, 40.0)], checked_from=50, windows=[], t0=0)
    assert ok  # all in the warm-up
    samples = [{"t": t, "rssKiB": 1000 + (60 if t >= 100 else 0)} for t in range(0, 181, 10)]
    ok, figures = rss_growth(samples, warmup=30, duration=180)
    assert not ok and figures["growthPercent"] == 6.0, figures
    ok, figures = rss_growth(samples, warmup=100, duration=180)
    assert ok and figures["growthPercent"] == 0.0, figures
    base = {"fds": 10, "ownConnections": 5, "ownClients": 5, "ownMembers": 5, "rooms": 2, "queued": 0, "preparing": 0}
    assert settled(base, dict(base))[0]
    ok, figures = settled(base, {**base, "fds": 11})
    assert not ok and figures["differ"] == {"fds": {"baseline": 10, "end": 11}}, figures
    assert settled({**base, "queued": 3}, base)[0], "items in flight at the baseline, drained at the end"
    ok, figures = settled({**base, "queued": 3}, {**base, "queued": 2})
    assert not ok and figures["differ"] == {"queued": {"baseline": 3, "end": 2}}, figures
    print("soak_checks: self-check passed")


if __name__ == "__main__":
    self_check()
