"""Does any input crash sudokit, or get a wrong answer? The fuzzing of ``tests/test_fuzz.py``
(issue 28), for minutes and with fresh seeds: mutated records of every format through every
command, odd ``generate`` options, junk requests to every endpoint of the JSON API, each answer
checked against the invariants of the ``tests/fuzzing`` package.

    python benchmarks/fuzz.py --minutes 10          # every command and endpoint in turn
    python benchmarks/fuzz.py --minutes 2 --only solve,/api/hint --seed 7
    python benchmarks/fuzz.py --minutes 2 --only diagnose,make-unique,/api/estimate   # the setters' side

It prints how many inputs went to each command and endpoint and how many broke an invariant,
then each distinct finding (the same kind, place and wording, numbers aside) with how often it
came, cut down to a small input, and the shell line that shows it. ``--json FILE`` keeps the
findings. One worker process runs the inputs (one core); it is replaced when one hangs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

import fuzzing  # noqa: E402

#: what is fuzzed: a name (a command or an endpoint) and the strategy of its inputs
TARGETS = {
    **{command: lambda command=command: fuzzing.runs([command]) for command in fuzzing.READING + fuzzing.SETTERS},
    "generate": lambda: fuzzing.generate_runs(),
    "kept meaning": lambda: fuzzing.runs(["solve", "count", "hint", "explain", "batch"], mutate=0.0),
    "setters kept meaning": lambda: fuzzing.runs(list(fuzzing.SETTERS), mutate=0.0),
    "pencil marks": lambda: fuzzing.runs(["hint", "explain"], families=["sukaku", "candidates", "hodoku", "json"], mutate=0.0),
    "variant fields": lambda: fuzzing.runs(["solve", "count", "hint", "batch"], families=["json", "variant"], mutate=1.0, structural=True),
    **{f"/api/{endpoint}": lambda endpoint=endpoint: fuzzing.requests([endpoint]) for endpoint in fuzzing.ENDPOINTS},
}
#: examples drawn from one target before the next one's turn
BATCH = 10


@dataclass
class Seen:
    """A distinct finding: the smallest example of it and how often it came."""

    finding: fuzzing.Finding
    example: object  #: the Run or Request that showed it (the smallest so far)
    count: int = 0
    reduced: bool = False


@dataclass
class Campaign:
    worker: fuzzing.Worker
    deadline: float
    cut_deadline: float = 0.0  #: when cutting findings down stops
    inputs: Counter = field(default_factory=Counter)
    broken: Counter = field(default_factory=Counter)
    slow: Counter = field(default_factory=Counter)
    seen: dict = field(default_factory=dict)

    def execute(self, example) -> list[fuzzing.Finding]:
        if isinstance(example, fuzzing.Request):
            return fuzzing.check_request(example, self.worker.run(example.job(), example.deadline))
        return fuzzing.check_run(example, self.worker.run(example.job(), example.deadline))

    def record(self, target: str, example) -> None:
        self.inputs[target] += 1
        findings = self.execute(example)
        if any(f.kind in fuzzing.BROKEN for f in findings):
            self.broken[target] += 1
        if any(f.kind == "slow" for f in findings):
            self.slow[target] += 1
        for finding in findings:
            known = self.seen.get(finding.signature)
            if known is None:
                self.seen[finding.signature] = known = Seen(finding, example)
                print(f"  new: {finding.where} {finding.kind}: {finding.detail[:150]}", flush=True)
            elif finding.size < known.finding.size:
                known.finding, known.example = finding, example
            known.count += 1

    def fuzz(self, target: str, rng: random.Random) -> None:
        @seed(rng.getrandbits(64))
        @settings(max_examples=BATCH, database=None, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck), derandomize=False)  # fmt: skip
        @given(TARGETS[target]())
        def draw(example) -> None:
            if time.monotonic() < self.deadline:
                self.record(target, example)

        draw()


# -- cutting a finding down ---------------------------------------------------------------------------


def _same(campaign: Campaign, example, signature) -> bool:
    return any(f.signature == signature for f in campaign.execute(example))


def _pieces(text: str, family: str) -> list[str]:
    """A feed's records, as the family lays them out (blocks between blank lines, or lines)."""
    if family in fuzzing.BLOCKS:
        return [block for block in text.replace("\r\n", "\n").split("\n\n") if block.strip()]
    return [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]


def _feed_of(family: str, texts: list[str], options) -> fuzzing.Feed:
    texts = [fuzzing.repaired(text) for text in texts]
    cases = tuple(fuzzing.Case(family, text, None, "cut down") for text in texts)
    joiner = "\n\n" if family in fuzzing.BLOCKS else "\n"
    return fuzzing.Feed(family, cases, fuzzing.encode(joiner.join(texts) + "\n"), tuple(options) + ("odd",))


def _shorter(text: str) -> list[str]:
    """Texts with a piece left out: halves, then quarters, ... down to single characters."""
    out = []
    chunk = max(1, len(text) // 2)
    while chunk >= 1:
        for start in range(0, len(text), chunk):
            candidate = text[:start] + text[start + chunk :]
            if candidate.strip() and candidate != text:
                out.append(candidate)
        if chunk == 1:
            break
        chunk //= 2
    return out


def reduce(campaign: Campaign, seen: Seen, tries: int) -> None:
    """Cut a finding's input down while the same finding still shows (a few dozen runs)."""
    example, signature = seen.example, seen.finding.signature
    budget = [tries]

    def attempt(candidate) -> bool:
        if budget[0] <= 0 or time.monotonic() > campaign.cut_deadline:
            return False
        budget[0] -= 1
        return _same(campaign, candidate, signature)

    if isinstance(example, fuzzing.Run) and example.feed is not None:
        feed = example.feed
        text = feed.data.decode("utf-8", "surrogateescape").lstrip("\ufeff")
        texts = _pieces(text, feed.family)
        options = [arg for arg in feed.options if arg != "odd"]
        current = replace(example, feed=_feed_of(feed.family, texts, options))
        if not attempt(current):
            return  # the finding needs the record's known meaning (or comes and goes)
        for index in range(len(texts) - 1, -1, -1):  # whole records first
            if len(texts) > 1:
                fewer = texts[:index] + texts[index + 1 :]
                candidate = replace(current, args=current.args, feed=_feed_of(feed.family, fewer, options))
                if attempt(candidate):
                    texts, current = fewer, candidate
        # a block's rows are cut no further: a grid cut to a few characters a line no longer says
        # which lines make a record
        for index in range(len(texts) if feed.family not in fuzzing.BLOCKS else 0):
            progress = True
            while progress:
                progress = False
                for shorter in _shorter(texts[index])[:12]:
                    trial = texts[:index] + [shorter] + texts[index + 1 :]
                    candidate = replace(current, feed=_feed_of(feed.family, trial, options))
                    if attempt(candidate):
                        texts, current, progress = trial, candidate, True
                        break
        example = current
    elif isinstance(example, fuzzing.Request):
        fields = example.fields
        if fields:
            for name in list(fields):
                fewer = {k: v for k, v in fields.items() if k != name}
                candidate = replace(example, body=fuzzing.encode(fuzzing.dumps(fewer)))
                if attempt(candidate):
                    fields, example = fewer, candidate
    if example is not seen.example:
        for finding in campaign.execute(example):
            if finding.signature == signature:
                seen.finding, seen.example, seen.reduced = finding, example, True
                break


# -- the report -------------------------------------------------------------------------------------


def report(campaign: Campaign, minutes: float, seed_used: int) -> None:
    print(f"\nfuzzing for {minutes:g} min, seed {seed_used}, {campaign.worker.started} worker start(s)\n")
    print(f"{'command / endpoint':<22}{'inputs':>8}{'broken':>8}{'slow':>6}")
    for target in TARGETS:
        if campaign.inputs[target]:
            print(f"{target:<22}{campaign.inputs[target]:>8}{campaign.broken[target]:>8}{campaign.slow[target]:>6}")
    total = sum(campaign.inputs.values())
    print(f"{'all':<22}{total:>8}{sum(campaign.broken.values()):>8}{sum(campaign.slow.values()):>6}")
    ordered = sorted(campaign.seen.values(), key=lambda s: (s.finding.kind not in fuzzing.BROKEN, s.finding.where, s.finding.kind, -s.count))
    print(f"\n{len(ordered)} distinct finding(s)" + (":" if ordered else ""))
    for number, seen in enumerate(ordered, 1):
        finding = seen.finding
        cut = " (cut down)" if seen.reduced else ""
        print(f"\n{number}. [{finding.where}] {finding.kind}, {seen.count} time(s){cut}: {finding.detail}")
        print(f"   {finding.reproducer}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=1.0, help="how long to fuzz (the cutting down comes after)")
    parser.add_argument("--seed", type=int, help="the seed of the draws (default: a fresh one, printed)")
    parser.add_argument("--only", help="comma-separated targets (e.g. solve,generate,/api/hint)")
    parser.add_argument("--tries", type=int, default=40, help="runs spent cutting each finding down")
    parser.add_argument("--cut-minutes", type=float, help="time for cutting findings down (default: a third of --minutes)")
    parser.add_argument("--json", type=Path, help="write the findings here")
    args = parser.parse_args()
    targets = [t for t in TARGETS if not args.only or t in args.only.split(",")]
    if not targets:
        parser.error(f"--only names none of: {', '.join(TARGETS)}")
    seed_used = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed_used)
    print("starting the worker (it loads every kernel; minutes on a cold cache)...", flush=True)
    with fuzzing.Worker() as worker:
        worker.run({"kind": "cli", "args": ["--version"], "stdin": b""}, 1800)
        campaign = Campaign(worker, time.monotonic() + args.minutes * 60)
        print(f"fuzzing {', '.join(targets)} for {args.minutes:g} min (seed {seed_used})", flush=True)
        while time.monotonic() < campaign.deadline:
            for target in targets:
                if time.monotonic() >= campaign.deadline:
                    break
                try:
                    campaign.fuzz(target, rng)
                except Exception as error:  # a fault of the strategies, not of sudokit: say so, go on
                    print(f"  the strategy of {target} failed: {type(error).__name__}: {error}", flush=True)
        print(f"cutting {len(campaign.seen)} finding(s) down...", flush=True)
        cut = args.cut_minutes if args.cut_minutes is not None else args.minutes / 3
        campaign.cut_deadline = time.monotonic() + cut * 60
        for seen in campaign.seen.values():
            if seen.finding.kind not in ("budget", "slow", "doubtful"):  # timings and chance: not cut down
                reduce(campaign, seen, args.tries)
    report(campaign, args.minutes, seed_used)
    if args.json:
        rows = [{**asdict(s.finding), "count": s.count, "reduced": s.reduced} for s in campaign.seen.values()]
        args.json.write_text(json.dumps({"seed": seed_used, "inputs": dict(campaign.inputs), "findings": rows}, indent=1))


if __name__ == "__main__":
    main()
