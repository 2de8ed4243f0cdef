"""The relevance judge that answers the labeled query sets' questions from their qrels (any
other question by the trained models): the judge of `nyaya verify --query`, `nyaya search
--verify` and `nyaya serve`. Apart from the models' training (evals.relevance), whose imports
would add about 2 s to every such command."""

from __future__ import annotations

from evals.querysets import load_queryset
from nyaya.settings import Settings
from nyaya.verify.relevance import RelevanceJudge

#: the sets whose queries the judge answers from their qrels
LABELED_SETS = ("nyaya-statutes",)


def labeled_judge(settings: Settings) -> RelevanceJudge:
    """The judge over the warehouse tables and the trained models, with the labeled sets'
    qrels."""
    return RelevanceJudge.from_settings(settings, [load_queryset(name) for name in LABELED_SETS])
