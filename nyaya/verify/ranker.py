"""Learning to rank statute sections (issue 19): a retrieval's candidates reordered by a model
trained on the corpus's own citations and the training halves of the question sets.

The model sees what the relevance judge sees of each (question, section) pair (`PairFeatures`:
BM25 against every section, domain agreement, named, the votes of similar judgments) and what
the retrieval knew of the candidate: its dense similarity to the question, its rank in the
fused list, whether it belongs to a new code (BNS / BNSS / BSA), whether it prescribes a
punishment, and how many corpus judgments cite it (or the section it replaced), the query's
own judgment not counted. The relevance judge does not read that count: it made the judge
assert popular sections RELEVANT and remove rarely cited ones (docs/verification.md). A
learned weight replaces a hand-set boost: the new-code boost lifted any new-code section
above a civil answer.

Trained by the `section_ranker` asset (evals/ranking.py) on training halves only; a config
that reranks is scored on held-out queries only. Figures: docs/retrieval-methods.md."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from nyaya.retrieval.base import Hit
from nyaya.retrieval.pipeline import StatuteResources
from nyaya.retrieval.retrievers import Query
from nyaya.settings import Settings
from nyaya.statutes.registry import NAVEEN_SANHITAS
from nyaya.verify.relevance import PairFeatures, RelevanceJudge, doc_key, judge_tables
from nyaya.verify.trained import RankingModel, ranker_path

RANK_FEATURES = (*PairFeatures.NAMES, "dense", "log_first_rank", "new_code", "offence",
                 "log_cited")
METHOD = "ltr"


def rank_features(judge: RelevanceJudge, resources: StatuteResources, query: Query,
                  hits: Sequence[Hit]) -> pd.DataFrame:
    """One row per candidate, in the order given (RANK_FEATURES columns): the one home of what
    the model sees, for training and for search. `query.excluded` judgments never vote."""
    rows = []
    for rank, hit in enumerate(hits, 1):
        act, section = doc_key(hit.doc_id)
        pair = judge.features(query.text, act, section, query.excluded)
        payload = resources.payload(hit.doc_id)
        rows.append([*pair.vector(), float(np.dot(query.dense, resources.vector(hit.doc_id))),
                     math.log(rank), float(payload.get("era") == NAVEEN_SANHITAS),
                     float(bool(payload.get("is_offence"))),
                     math.log1p(resources.votes.cited_by(hit.doc_id, query.excluded))])
    return pd.DataFrame(rows, columns=list(RANK_FEATURES))


class SectionRanker:
    """Reorders a statute search's fused candidates by the trained model (`rerank` in a
    config: nyaya.retrieval.pipeline)."""

    def __init__(self, judge: RelevanceJudge, model: RankingModel,
                 resources: StatuteResources) -> None:
        self.judge, self.model, self.resources = judge, model, resources

    @classmethod
    def from_settings(cls, settings: Settings, resources: StatuteResources) -> SectionRanker:
        """The model the section_ranker asset trained, over the warehouse's sections; its
        judge shares the resources' judgment votes. FileNotFoundError when it is not built."""
        model = RankingModel.load(ranker_path(settings), RANK_FEATURES)
        return cls(RelevanceJudge(*judge_tables(settings), votes=lambda: resources.votes,
                                  warehouse=settings.warehouse), model, resources)

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]:
        """The hits by the model's score (a tie keeps the fused order), each method marked
        `+ltr` after the retrievers that found it."""
        if not hits:
            return []
        scores = self.model.scores(rank_features(self.judge, self.resources, query, hits))
        order = sorted(range(len(hits)), key=lambda i: (-scores[i], i))
        return [Hit(hits[i].doc_id, round(float(scores[i]), 6), f"{hits[i].method}+{METHOD}")
                for i in order]
