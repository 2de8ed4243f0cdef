"""Verification rates over evaluation runs: what the gate does with what each config would
pass to a user.

For every query, the config's top `k` statute sections are written as an answer citing them
("BNS_2023 s.103", "Article 21") and run through the gate with the query, the relevance step
judging by its trained model alone (never by the qrels: the qrels are what it is measured
against). Per config: the share of answers VERIFIED / PARTIALLY_VERIFIED / PRECEDENT_ONLY /
UNVERIFIED over every query; and over the judged queries of the held-out half only (the model
learned from the other half's judgments): false positives per query, citations the gate let
through that the qrels do not judge relevant (the served system's "yes-man" failure), beside
its targets; of those, the ones it passed as RELEVANT (asserted to answer the question, where a
TANGENTIAL one goes with a note asking a person to check it); and relevant removed per query,
citations the qrels judge relevant that the gate took out (a removal that misstates the law).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import pandas as pd

from evals.evaluate import held_out_qrels
from evals.metrics import evaluate_run
from evals.querysets import QuerySet
from nyaya.lookup import cited_as
from nyaya.verify.gate import verify_text
from nyaya.verify.model import (
    OVERALL_VERIFIED,
    PARTIALLY_VERIFIED,
    PRECEDENT_ONLY,
    RELEVANT,
    UNVERIFIED,
)
from nyaya.verify.relevance import RelevanceJudge, doc_key
from nyaya.verify.statutes import StatuteChecker

STATUSES = (OVERALL_VERIFIED, PARTIALLY_VERIFIED, PRECEDENT_ONLY, UNVERIFIED)
# the served system's own targets (spec 001 section 10)
TARGETS = {"verified_rate": ">= 0.70", "unverified_rate": "<= 0.10",
           "false_positives_per_query": "<= 0.1", "precision@3_criminal": ">= 0.90",
           "precision@3_civil": ">= 0.70"}
#: Which query domains count as criminal and civil for those two targets; evidence and
#: constitutional questions belong to neither and are left out of both.
CRIMINAL_DOMAINS = frozenset({"criminal_substantive", "criminal_procedure", "child_protection",
                              "cyber"})
CIVIL_DOMAINS = frozenset({"family", "civil_contract", "civil_property", "civil_procedure",
                           "tenancy", "consumer", "arbitration", "limitation", "employment",
                           "motor_vehicles", "right_to_information", "negotiable_instruments"})


def precision_by_area(run: pd.DataFrame, queryset: QuerySet) -> dict[str, float]:
    """Precision@3 over the judged criminal and civil questions (NaN where a set has none)."""
    domains = queryset.tags("domain")
    out = {}
    for area, members in (("criminal", CRIMINAL_DOMAINS), ("civil", CIVIL_DOMAINS)):
        qrels = {qid: docs for qid, docs in queryset.qrels.items()
                 if domains.get(qid) in members}  # a query without a domain is in neither
        out[f"precision@3_{area}"] = (evaluate_run(run[run["qid"].isin(qrels)], qrels,
                                                   ("precision@3",))["precision@3"]
                                      if qrels else float("nan"))
    return out


def missed_targets(row: Mapping[str, float]) -> str:
    """The served system's targets a config's row misses, each with its figure: what the
    report marks, so a missed target never reads as a plain number."""
    missed = []
    for column, target in TARGETS.items():
        value = row.get(column)
        if value is None or value != value:  # not measured (NaN): neither met nor missed
            continue
        operator, _, threshold = target.partition(" ")
        met = value >= float(threshold) if operator == ">=" else value <= float(threshold)
        if not met:
            missed.append(f"{column} {value:.2f} (target {target})")
    return "; ".join(missed) or "none"


def verification_rates(runs: pd.DataFrame, queryset: QuerySet, checker: StatuteChecker,
                       judge: RelevanceJudge, k: int = 5) -> pd.DataFrame:
    """One row per config that ran on `queryset`: status rates over every query, false
    positives and relevant removed per judged held-out query."""
    texts = dict(zip(queryset.queries["qid"], queryset.queries["query"], strict=True))
    held_out = set(held_out_qrels(queryset))
    by_config = dict(tuple(runs[runs["queryset"] == queryset.name].groupby("config",
                                                                            sort=True)))
    tops = {config: (run.sort_values(["qid", "rank"]).groupby("qid")["doc_id"]
                     .apply(lambda docs: list(docs)[:k]).to_dict())
            for config, run in by_config.items()}
    judge.prepare((texts[qid], *doc_key(doc)) for top in tops.values()
                  for qid, docs in top.items() if qid in texts for doc in docs)
    rows = []
    for config, run in by_config.items():
        top = tops[config]
        statuses: Counter[str] = Counter()
        false_positives = asserted = relevant_removed = 0
        for qid, query in texts.items():
            answer = ". ".join(cited_as(doc) for doc in top.get(qid, []))
            report = verify_text(answer, checker, query=query, relevance=judge)
            statuses[report.overall] += 1
            if qid in held_out:
                judged = queryset.qrels[qid]
                for verdict in report.verdicts:
                    grade = judged.get(f"{verdict.act_code}:{verdict.section_number}", 0)
                    false_positives += verdict.survives and grade < 1
                    asserted += (verdict.survives and grade < 1 and verdict.relevance is not None
                                 and verdict.relevance["verdict"] == RELEVANT)
                    relevant_removed += not verdict.survives and grade >= 1
        total = len(texts)
        rows.append({"config": config, "queryset": queryset.name, "queries": total, "k": k,
                     **{f"{status.lower()}_rate": statuses[status] / total
                        for status in STATUSES},
                     "held_out_queries": len(held_out),
                     "false_positives_per_query": false_positives / max(len(held_out), 1),
                     "asserted_false_positives_per_query": asserted / max(len(held_out), 1),
                     "relevant_removed_per_query": relevant_removed / max(len(held_out), 1),
                     **precision_by_area(run, queryset)})
    table = pd.DataFrame(rows)
    return table.assign(missed_targets=[missed_targets(row) for row in
                                        table.to_dict("records")]) if rows else table


#: removal cuts on P(relevant) that `removal_tradeoff` tries beside the model's own
TRADEOFF_CUTS = (0.02, 0.05, 0.1, 0.2, 0.3, 0.5)


def removal_tradeoff(runs: pd.DataFrame, queryset: QuerySet, judge: RelevanceJudge,
                     cuts: tuple[float, ...] = TRADEOFF_CUTS, k: int = 5) -> pd.DataFrame:
    """What another removal cut would do to each config's top `k` on the judged held-out
    queries: per cut (the model's own first), citations kept, false positives and relevant
    removed per query. The rule beside the model removes what it removes in the gate, and what
    the gate keeps whatever the model says (`PairFeatures.kept`) is kept at every cut. A lower
    false-positive figure is bought with relevant sections removed: this shows the price."""
    held_out = held_out_qrels(queryset)
    per_query = len(held_out) or 1
    texts = dict(zip(queryset.queries["qid"], queryset.queries["query"], strict=True))
    rows = []
    for config, run in runs[runs["queryset"] == queryset.name].groupby("config", sort=True):
        top = (run[run["qid"].isin(list(held_out))].sort_values(["qid", "rank"])
               .groupby("qid").head(k))
        pairs = []
        for qid, doc in zip(top["qid"], top["doc_id"], strict=True):
            features, probability, contradiction = judge.scored(texts[qid], *doc.split(":", 1))
            pairs.append((probability, contradiction, features.kept,
                          features.kind, held_out[qid].get(doc, 0) >= 1))
        scored = pd.DataFrame(pairs, columns=["probability", "contradicted", "kept",
                                              "kind", "relevant"])
        own = scored["kind"].map(lambda kind: judge.model.cuts[kind].low)
        for cut in ("model", *cuts):
            kept = ~scored["contradicted"] & (scored["kept"] | (
                scored["probability"] >= (own if cut == "model" else cut)))
            rows.append({"config": config, "removal_cut": cut,
                         "kept_per_query": kept.sum() / per_query,
                         "false_positives_per_query": (kept & ~scored["relevant"]).sum()
                         / per_query,
                         "relevant_removed_per_query": (~kept & scored["relevant"]).sum()
                         / per_query,
                         "relevant_in_top_k_per_query": scored["relevant"].sum() / per_query})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> None:
    """Print `removal_tradeoff` for the configs named (default: the search default and the
    fused config it reranks) over the runs `make run` wrote to NYAYA_DATA."""
    import sys

    from evals.querysets import load_queryset
    from evals.runs import read_trec
    from nyaya.settings import Settings

    settings = Settings.from_env()
    configs = (argv if argv is not None else sys.argv[1:]) or ["lookup-cases-ltr",
                                                               "lookup-cases-rrf"]
    queryset = load_queryset("nyaya-statutes")
    runs = pd.concat([read_trec(settings.data_dir / "runs" / queryset.name / f"{config}.trec")
                      .assign(config=config, queryset=queryset.name) for config in configs],
                     ignore_index=True)
    table = removal_tradeoff(runs, queryset, RelevanceJudge.from_settings(settings))
    print(table.to_markdown(index=False, floatfmt=".2f"))


if __name__ == "__main__":
    main()
