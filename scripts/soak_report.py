"""The soak's JSON report: every check with its numbers, and the figures docs/BENCHMARKS.md quotes."""

import os
import platform

import soak_checks

PEAK_KEYS = ("fds", "connections", "ownConnections", "clients", "rooms", "members", "queued", "remoteSessions")


def _machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        memory = int(f.readline().split()[1]) // 1024
    return {"cpus": os.cpu_count(), "model": model, "memoryMiB": memory, "kernel": platform.release(),
            "loadAverageAtEnd": [round(x, 2) for x in os.getloadavg()]}


def _generator(soak, outcomes, main_cpu):
    """The generator's CPU: in total, and as a share of one core over the loaded samples."""
    loaded = [s for s in soak.samples if s["t"] <= soak.args.duration]
    span = loaded[-1]["t"] - loaded[0]["t"] if len(loaded) > 1 else 0
    used = loaded[-1]["cpu"]["generator"] - loaded[0]["cpu"]["generator"] if span else 0
    hub_a = loaded[-1]["cpu"]["hubA"] - loaded[0]["cpu"]["hubA"] if span else 0
    frames = [n for o in outcomes for n in o["frames"]]
    seconds = max((o["finishedAt"] - o["readyAt"]) for o in outcomes)
    return {
        "workers": len(outcomes), "cpuSecondsMain": round(main_cpu, 1), "cpuSecondsWorkers": [o["cpuSeconds"] for o in outcomes],
        "percentOfOneCoreUnderLoad": round(100 * used / span, 1) if span else None,
        "hubAPercentOfOneCoreUnderLoad": round(100 * hub_a / span, 1) if span else None,
        "steadyFramesPerSecondMean": round(sum(frames) / len(frames) / seconds, 2) if frames and seconds else None,
        "steadyFramesPerSecondLowest": round(min(frames) / seconds, 2) if frames and seconds else None,
    }


def _inside(t, windows):
    return any(lo <= t <= hi for lo, hi in windows)


def build_report(soak, baseline, end, outcomes, main_cpu):
    args, t0 = soak.args, soak.t0
    warmup = soak_checks.warmup_seconds(args.duration)
    windows = [(f["start"], f["windowEnd"]) for f in soak.faults]
    checks = {}

    def add(name, result):
        passed, figures = result
        checks[name] = {"passed": passed, **figures}

    add("rss", soak_checks.rss_growth(soak.samples, warmup, args.duration))
    add("settle", soak_checks.settled(baseline, end))
    checks["settle"]["seconds"] = end["seconds"]
    hub_b_movers = sum(1 for m in soak.movers if m.hub is soak.hubs[1])
    checks["remote"] = {"passed": (end.get("remoteSessions") or 0) <= hub_b_movers, "remoteSessions": end.get("remoteSessions"),
                        "remoteClients": end.get("remoteClients"), "hubBMovers": hub_b_movers}
    add("logs", soak_checks.error_lines([hub.log_path for hub in soak.hubs]))
    add("gaps", soak_checks.follower_gaps([g for o in outcomes for g in o["gaps"]], t0 + warmup, windows, t0))
    drops = [d for o in outcomes for d in o["drops"]]
    joined = sum(o["steadyJoined"] for o in outcomes)
    checks["drops"] = {"passed": not drops and joined == args.followers, "steadyJoined": joined, "drops": len(drops),
                       "examples": [{"t": round(t - t0, 1), "what": w} for t, w in drops[:10]]}
    failures = [f for o in outcomes for f in o["churn"]["failures"]]
    outside = [f for f in failures if not _inside(f[0], windows)]
    checks["churn"] = {"passed": not outside, "failures": len(failures), "outsideFaults": len(outside),
                       "examples": [{"t": round(t - t0, 1), "what": w} for t, w in outside[:10]]}
    checks["recovery"] = {"passed": all(f["recovered"] for f in soak.faults), "limitSeconds": 30,
                          "faults": [{"fault": f["fault"], "at": round(f["start"] - t0, 1),
                                      "recoveredAfter": round(f["recovered"] - f["start"], 1) if f["recovered"] else None,
                                      "windowEnd": round(f["windowEnd"] - t0, 1)} for f in soak.faults]}
    checks["stalls"] = {"passed": not soak.stalls, "limitSeconds": 2.0,
                        "stalls": [{"t": round(a - t0, 1), "seconds": round(s, 1)} for a, s in soak.stalls]}
    return {"summary": _summary(soak, baseline, end, outcomes, warmup), "generator": _generator(soak, outcomes, main_cpu),
            "checks": checks, "machine": _machine(), "logs": soak.folder}


def _summary(soak, baseline, end, outcomes, warmup):
    args = soak.args
    stats = {}
    for o in outcomes:
        for k, v in o["stats"].items():
            if isinstance(v, dict):
                bucket = stats.setdefault(k, {})
                for kk, vv in v.items():
                    bucket[kk] = bucket.get(kk, 0) + vv
            else:
                stats[k] = stats.get(k, 0) + v
    movers = {}
    for m in soak.movers:
        for k, v in m.counts.items():
            movers[k] = movers.get(k, 0) + v
    churn = {k: sum(o["churn"][k] for o in outcomes) for k in ("started", "joined", "closed")}
    peaks = {k: max((s.get(k) for s in soak.samples if s.get(k) is not None), default=None) for k in PEAK_KEYS}
    return {
        "command": f"python3 scripts/soak.py --duration {args.duration:g} --followers {args.followers} --rooms {args.rooms} "
                   f"--churn {args.churn:g} --rate {args.rate} --workers {args.workers} --hub {args.hub}",
        "warmupSeconds": warmup, "samples": len(soak.samples),
        "counts": {"baseline": {k: baseline.get(k) for k in PEAK_KEYS}, "peak": peaks, "end": {k: end.get(k) for k in PEAK_KEYS}},
        "rssKiBAtEnd": end.get("rssKiB"), "followers": stats, "churn": churn, "movers": movers,
    }
