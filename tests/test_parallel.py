"""nyaya.parallel: results in the items' order, workers' log lines forwarded, a worker's error
raised here, and one worker run in this process."""

from __future__ import annotations

import os

import pytest

from nyaya.parallel import available_cores, map_in_processes


def square_and_say(item: int, log) -> tuple[int, int]:
    log(f"squared {item}")
    return item * item, os.getpid()


def fail_on_three(item: int, _log) -> int:
    if item == 3:
        raise ValueError(f"item {item} is bad")
    return item


@pytest.mark.parametrize(("items", "workers", "in_this_process"), [
    ([4, 1, 3, 2], 2, False),
    ([5, 6], 1, True),      # one worker: no process at all
    ([7], 2, True),         # one item: the same
    ([], 2, True),
])
def test_results_in_order_and_every_line_logged(items, workers, in_this_process):
    lines: list[str] = []
    results = map_in_processes(square_and_say, items, log=lines.append, workers=workers)
    assert [value for value, _ in results] == [item * item for item in items]
    assert sorted(lines) == sorted(f"squared {item}" for item in items)
    assert all((pid == os.getpid()) == in_this_process for _, pid in results)


def test_a_workers_error_is_raised_here_with_its_message():
    with pytest.raises(ValueError, match="item 3 is bad"):
        map_in_processes(fail_on_three, [1, 2, 3, 4], workers=2)


def test_available_cores_is_this_process_affinity():
    assert available_cores() == len(os.sched_getaffinity(0)) >= 1
