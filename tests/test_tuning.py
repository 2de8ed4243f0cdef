"""The train / held-out split and the tuned-config plumbing (the fitting itself runs on the real
corpus in test_real_corpus.py)."""

from __future__ import annotations

import pytest

from evals.configs import load_config
from evals.splits import HELDOUT, TRAIN, in_split, is_tuned, split_of
from evals.tuning import with_weights


@pytest.mark.parametrize(("qid", "split"), [
    ("NS001", HELDOUT), ("NS002", TRAIN), ("NS003", HELDOUT), ("NS004", TRAIN),
    ("AILA_Q1", HELDOUT), ("current_case_0001", TRAIN),
])
def test_split_depends_on_the_qid_alone(qid, split):
    assert split_of(qid) == split


def test_splits_partition_the_queries():
    qids = [f"NS{n:03d}" for n in range(1, 201)]
    train, heldout = in_split(reversed(qids), TRAIN), in_split(qids, HELDOUT)
    assert sorted(train + heldout) == qids and not set(train) & set(heldout)
    assert 80 <= len(train) <= 120  # a hash, so about half
    assert train == sorted(train)  # order of the input does not matter


def test_tuned_config_gets_its_weights_and_nothing_else_changes():
    params = load_config("wsum-tuned").params
    assert is_tuned(params) and not is_tuned(load_config("wsum-minmax").params)
    fitted = with_weights(params, {"dense": 0.35, "sparse": 0.65})
    assert fitted["fusion"]["weights"] == {"dense": 0.35, "sparse": 0.65}
    assert not is_tuned(fitted)
    assert {k: v for k, v in fitted["fusion"].items() if k != "weights"} == \
        {k: v for k, v in params["fusion"].items() if k != "weights"}
    assert params["fusion"]["weights"] == "tuned"  # the loaded config is not mutated
