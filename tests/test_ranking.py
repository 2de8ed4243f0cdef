"""The section ranker's fitting (evals/ranking.py) on synthetic candidate lists: what the model
learns from real candidates is tested on the fixture and the real corpus; here, that it learns
from rows in any order, that two fits are one model, and what it refuses."""

import numpy as np
import pandas as pd
import pytest

from evals.ranking import fit_ranker
from nyaya.verify.ranker import RANK_FEATURES


def candidate_lists(sets: tuple[str, ...] = ("a", "b"), queries: int = 12, depth: int = 20,
                    seed: int = 0) -> pd.DataFrame:
    """`queries` lists of `depth` candidates in each set, the same qids in every set; one
    candidate a list is judged (grade 2) and has the highest `lexical`, the others noise."""
    rng = np.random.default_rng(seed)
    rows = []
    for name in sets:
        for q in range(queries):
            judged = int(rng.integers(depth))
            for rank in range(1, depth + 1):
                features = {feature: float(rng.random()) for feature in RANK_FEATURES}
                features["lexical"] = 2.0 + rng.random() if rank - 1 == judged else rng.random()
                rows.append({**features, "queryset": name, "qid": f"q{q}",
                             "doc_id": f"D{rank}", "rank": rank,
                             "grade": 2 if rank - 1 == judged else 0})
    return pd.DataFrame(rows).sample(frac=1.0, random_state=seed)  # rows in no order


def test_rows_in_any_order_are_learned_and_counted_per_set_and_the_judged_ranks_first():
    """The same qids in two sets stay two queries each; on unseen lists the judged candidate
    (the highest lexical match) comes first."""
    model = fit_ranker(candidate_lists())
    assert model.figures["training_queries"] == {"a": 12, "b": 12}
    assert model.figures["judged_candidates"] == {"a": 12, "b": 12}
    assert model.figures["training_pairs"] == {"a": 240, "b": 240}
    unseen = candidate_lists(("c",), queries=5, seed=1)
    scored = unseen.assign(score=model.scores(unseen))
    first = scored.sort_values(["qid", "score"], ascending=[True, False]).groupby("qid").head(1)
    assert (first["grade"] == 2).all()


def test_two_fits_of_the_same_pairs_are_one_model():
    """A baseline is compared with the next build's runs: the ranker must not move between
    two trainings on the same candidates."""
    pairs = candidate_lists()
    unseen = candidate_lists(("c",), queries=4, seed=2)
    assert fit_ranker(pairs).scores(unseen).tolist() == fit_ranker(pairs).scores(unseen).tolist()


@pytest.mark.parametrize("pairs", [
    candidate_lists().assign(grade=0),
    candidate_lists().iloc[:0],
], ids=["no judged candidate", "no candidate"])
def test_the_ranker_refuses_candidates_with_nothing_judged(pairs):
    with pytest.raises(ValueError, match="no judged candidate to train the section ranker on"):
        fit_ranker(pairs)
