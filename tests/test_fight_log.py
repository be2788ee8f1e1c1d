"""A fight's log (runtime/fight_state.Log): each fight's log is the lines before it and the ones
its step added, kept to the last MAX_LOG, however the fights are read and branched; adding does
not copy the whole log, and a chain holds at most twice MAX_LOG lines."""

from __future__ import annotations

import random

from rulec.runtime.fight_state import EMPTY_LOG, MAX_LOG, Log


def _chain_lines(log: Log) -> int:
    count, link = 0, log
    while link is not None:
        count += len(link.added)
        link = link.before
    return count


def test_the_log_is_the_last_lines_added_through_reads_and_branches() -> None:
    rng = random.Random(34)
    logs: list[tuple[Log, tuple[str, ...]]] = [(EMPTY_LOG, ())]
    for step in range(6000):
        log, plain = logs[rng.randrange(len(logs))] if rng.random() < 0.1 else logs[-1]  # now and then a branch
        added = [f"{step}-{k}" for k in range(rng.choice((0, 1, 1, 2, 3, 40)))]
        log, plain = log.extended(added), (plain + tuple(added))[-MAX_LOG:]
        if rng.random() < 0.3:  # a bot reads (stores) the fight now and then
            assert log.lines() == plain
        assert _chain_lines(log) <= 2 * MAX_LOG + 40
        logs.append((log, plain))
        logs = logs[-50:]
    for log, plain in logs:
        assert log.lines() == plain


def test_a_log_made_from_lines_keeps_the_last_max_log() -> None:
    lines = tuple(str(i) for i in range(MAX_LOG + 7))
    assert Log.of(lines).lines() == lines[-MAX_LOG:]
    assert Log.of(()).extended([]) is not None and Log.of(()).lines() == ()


def test_since_gives_the_lines_written_after_an_earlier_log_even_when_full() -> None:
    """`Log.since` (Fight.log_since): what a later log holds that an earlier one it was extended
    from did not, counted by the lines written (the lengths stop growing at MAX_LOG), through
    reads, rebases and branches; none for the same log or a later one."""
    rng = random.Random(35)
    logs: list[tuple[Log, list[str]]] = [(EMPTY_LOG, [])]
    for step in range(4000):
        log, written = logs[rng.randrange(len(logs))] if rng.random() < 0.1 else logs[-1]
        added = [f"{step}-{k}" for k in range(rng.choice((0, 1, 1, 2, 3, 40)))]
        later = log.extended(added)
        if rng.random() < 0.3:
            later.lines()  # read: the next extension rebases
        assert later.since(log) == tuple(added[-MAX_LOG:])
        assert later.written == log.written + len(added)
        logs.append((later, written + added))
        logs = logs[-50:]
    first, first_written = logs[0]
    for log, written in logs[1:]:
        if written[:len(first_written)] == first_written:  # extended from the first (no branch between)
            assert log.since(first) == tuple(written[len(first_written):][-MAX_LOG:])
            assert first.since(log) == ()
        assert log.since(log) == ()
    restored = Log.of(logs[-1][0].lines())  # a fight read back from its stored lines counts from them
    assert restored.extended(["x"]).since(restored) == ("x",)
