"""Fuzzing sudokit: mutated records of every format it reads, sent through every command and
every endpoint of the JSON API, and the invariants each answer must keep.

Shared by ``tests/test_fuzz.py`` (hypothesis, fixed seed, bounded) and ``benchmarks/fuzz.py``
(the same strategies for minutes, random seeds, findings counted and cut down). The invariants:

- a command exits 0, 1, 2 or 3, never 70 ("internal error"), with no traceback on stderr; an
  endpoint never answers 500;
- one output record per input record, in order; each malformed one says line and column;
- every solution keeps every rule of its record (houses, extra houses, cages, pencil marks,
  givens), checked here without sudokit; an answer known from the data (a count, "no
  solution", the solution) stays that answer after a rewrite that keeps the meaning;
- a step of ``hint`` or ``explain`` never places a wrong value nor removes the true one;
- a budget (``--time-limit``, the API's ``time_limit``) is honoured within a second;
- the setters' answers hold: a diagnosis's count, solutions, core and givens that could go; a
  board made unique (``make-unique``) or reduced (``reduce``) is unique, its solution the
  record's, and changed only as the command may; an optimum (``maximize``, ``minimize``) is
  the score its board makes; an estimate keeps its own numbers in order.

Nothing here trusts sudokit to judge sudokit: the rules of a known puzzle are built from the
data files, the puzzles are written by the writers of ``puzzles.py``, and counts come from ``naive.py``
(classic boards) or :func:`brute_force` (any rules, small boards). Where a mutated record's
rules can only be known by reading it, they are sudokit's reading, and only the solver's answer
is judged against them.

The commands run in a worker process (:class:`Worker`), in-process there through click's
runner, so that a command that never ends can be stopped: its worker is killed and replaced.

Rooms: ``rules`` (the checker and the brute force), ``puzzles`` (known puzzles and the
writers), ``strategies`` (records, mutations, feeds, command lines, requests), ``worker`` (the
process that runs them), ``checks`` (the invariants).
"""

from __future__ import annotations

from .checks import (
    BROKEN, EXITS, Finding, check_request, check_run, count_to_two, in_puzzle_values, meaning_of, read_feed,
    records_match, rules_of, split_scores, step_claims, target_score,
)
from .puzzles import BLOCKS, CATALOGUE, FORMAT_OF, Puzzle, write
from .rules import Rules, broken_rules, brute_force
from .strategies import (
    ENDPOINTS, READING, SETTERS, Case, Feed, Request, Run, dumps, encode, feeds, generate_runs, records, repaired,
    requests, runs,
)
from .worker import Outcome, Worker

__all__ = [
    "BLOCKS", "BROKEN", "CATALOGUE", "ENDPOINTS", "EXITS", "FORMAT_OF", "READING", "SETTERS", "Case", "Feed", "Finding",
    "Outcome", "Puzzle", "Request", "Rules", "Run", "Worker", "broken_rules", "brute_force", "check_request", "check_run",
    "count_to_two", "dumps", "encode", "feeds", "generate_runs", "in_puzzle_values", "meaning_of", "read_feed", "records",
    "records_match", "repaired", "requests", "rules_of", "runs", "split_scores", "step_claims", "target_score", "write",
]  # fmt: skip
