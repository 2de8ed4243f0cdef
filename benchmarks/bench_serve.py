"""`nyaya serve` under a bounded local load; prints figures.

    .venv/bin/python benchmarks/bench_serve.py [--clients 4] [--quick]

Starts `nyaya serve --port 0` as its own process over the built warehouse (`make run`
first), waits until it is ready, then sends each endpoint a fixed number of requests from
`--clients` concurrent keep-alive clients on 127.0.0.1: lookups of single citations, verifications
of a 10-citation answer, and statute and precedent searches. Prints requests per second and
p50 / p99 latency per endpoint, and beside them what one `nyaya verify` command takes for the
same answer (loading included), the cost the server is there to remove.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NYAYA = [sys.executable, "-m", "pipelines.cli"]
CITATIONS = ("BNS 103", "IPC 302", "Article 21", "CrPC 438", "s. 138 NI Act", "BNSS 482",
             "IEA 65B", "BNS 318", "Article 14", "IPC 420")
ANSWER = ("Murder is punishable under BNS 103 (formerly IPC 302), cheating under BNS 318 and "
          "IPC 420. Anticipatory bail lies under BNSS 482, earlier CrPC 438. Electronic records "
          "need a certificate under IEA 65B. A dishonoured cheque is an offence under s. 138 "
          "NI Act. Articles 14 and 21 of the Constitution protect equality and life.")
STATUTE_QUESTIONS = ("punishment for murder", "my cheque bounced for insufficient funds",
                     "anticipatory bail when arrest is feared", "dowry death of a wife",
                     "cheating and dishonestly inducing delivery of property")
PRECEDENT_QUESTIONS = ("dowry death within seven years of marriage",
                       "anticipatory bail for economic offences")


@dataclass(frozen=True)
class Load:
    endpoint: str
    requests: int
    bodies: tuple[dict, ...]  # cycled through


@dataclass(frozen=True)
class Figures:
    endpoint: str
    clients: int
    requests: int
    errors: int
    per_second: float
    p50_ms: float
    p99_ms: float


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen, int, float]:
    """`nyaya serve --port 0` as a child process: (process, port, seconds until ready)."""
    started = time.perf_counter()
    process = subprocess.Popen([*NYAYA, "serve", "--port", "0"], cwd=REPO, env=env,
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        ready = re.search(r"ready in .* at http://[\d.]+:(\d+)", line)
        if ready:
            threading.Thread(target=process.stderr.read, daemon=True).start()  # keep draining
            return process, int(ready.group(1)), time.perf_counter() - started
    process.wait()
    raise RuntimeError(f"nyaya serve exited with {process.returncode} before it was ready")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def drive(port: int, load: Load, clients: int) -> Figures:
    """`load.requests` POSTs from `clients` threads, each on its own keep-alive connection."""
    counter = itertools.count()
    latencies: list[float] = []
    errors = [0]
    guard = threading.Lock()

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while (number := next(counter)) < load.requests:
            body = json.dumps(load.bodies[number % len(load.bodies)]).encode()
            started = time.perf_counter()
            connection.request("POST", load.endpoint, body,
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            took = time.perf_counter() - started
            with guard:
                latencies.append(took)
                errors[0] += response.status != 200
        connection.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    return Figures(load.endpoint, clients, len(latencies), errors[0], len(latencies) / wall,
                   percentile(latencies, 0.5) * 1000, percentile(latencies, 0.99) * 1000)


def one_verify_command(env: dict[str, str]) -> float:
    """Seconds for one `nyaya verify -` of the answer: the per-call cost without a server."""
    started = time.perf_counter()
    subprocess.run([*NYAYA, "verify", "-", "--json"], cwd=REPO, env=env, input=ANSWER,
                   text=True, capture_output=True, check=False)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--quick", action="store_true", help="a tenth of the requests")
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    loads = (Load("/lookup", 2000 // scale, tuple({"citation": c} for c in CITATIONS)),
             Load("/verify", 500 // scale, ({"text": ANSWER, "as_of": "2025-01-01"},)),
             Load("/search", 200 // scale,
                  tuple({"q": q, "k": 10} for q in STATUTE_QUESTIONS)),
             Load("/search", 50 // scale, tuple({"q": q, "side": "precedents", "k": 10}
                                               for q in PRECEDENT_QUESTIONS)))
    process, port, ready_s = start_server(env)
    try:
        rows = [drive(port, load, args.clients) for load in loads]
    finally:
        process.terminate()
        process.wait(timeout=30)
    command_s = one_verify_command(env)
    names = ("lookup (1 citation)", "verify (10 citations)", "search statutes (k 10)",
             "search precedents (k 10)")
    print(f"nyaya serve on 127.0.0.1: ready in {ready_s:.1f} s (tables, models, both sides' "
          f"stores); {args.clients} concurrent clients, keep-alive\n")
    print(f"| endpoint | requests | errors | requests/s | p50 ms | p99 ms |\n|{'---|' * 6}")
    for name, row in zip(names, rows, strict=True):
        print(f"| {name} | {row.requests} | {row.errors} | {row.per_second:.1f} | "
              f"{row.p50_ms:.1f} | {row.p99_ms:.1f} |")
    verify = rows[1]
    print(f"\none `nyaya verify -` of the same answer, loading included: {command_s:.2f} s "
          f"= {command_s * 1000 / verify.p50_ms:.0f}x the served p50 ({verify.p50_ms:.1f} ms)")
    return 1 if any(row.errors for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
