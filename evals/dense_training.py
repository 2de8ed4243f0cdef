"""A static embedder trained on the corpus's own citations, measured beside the embedders `make
run` uses: the experiment behind docs/retrieval-methods.md ("A dense model trained on the
corpus"). `NYAYA_DATA=data python -m evals.dense_training` trains it and prints the figures
(under two minutes on two cores); it writes nothing.

The model starts from the static model distilled from the packaged MiniLM (`minilm-static`)
and is trained with model2vec's pair trainer (InfoNCE, in-batch negatives) on the training
halves only: each training-half judgment's passage with its statute citations masked, paired
with every in-force section it cites (cited-statutes' training half), and nyaya-statutes'
training questions with their judged sections. It is measured on the held-out halves, alone
and fused (RRF, k = 60) with the BM25 and similar-case branches of the runs `make run` wrote.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np
import pandas as pd

from evals.corpus_sets import load_dev_set
from evals.evaluate import held_out_qrels
from evals.metrics import evaluate_run
from evals.querysets import QuerySet, load_queryset
from evals.relevance import training_queries
from evals.runs import rank_frame, read_trec
from nyaya.index.embedders import packaged_minilm_path, static_folder
from nyaya.retrieval.base import Hit
from nyaya.retrieval.fusion import rrf
from nyaya.settings import Settings
from nyaya.tables import read_table

EPOCHS = 20
BATCH_SIZE = 64
SECTION_CHARS = 2000  # a section's title and text, cut: the static model reads 512 tokens
DEPTH = 100  # hits per query and branch, as the configs retrieve
#: the branches of `make run`'s runs fused with the trained one: BM25 and similar cases
FUSED_WITH = ("bm25-sections", "cases-sections")
PACKAGED_DENSE = "dense-qdrant"  # the dense branch `make run` embedded (its sections embedder)
METRICS = ("map", "ndcg@10", "recall@100")


def section_texts(settings: Settings) -> dict[str, str]:
    """In-force section doc id -> title and text: what a statute config retrieves from."""
    docs = read_table(settings.warehouse / "legal_sections_documents.parquet")
    docs = docs[docs["status"] == "in_force"]
    texts = (docs["title"].fillna("") + ". " + docs["text"].fillna("")).str.slice(
        0, SECTION_CHARS)
    return dict(zip(docs["doc_id"], texts, strict=True))


def training_pairs(settings: Settings, sections: Mapping[str, str]
                   ) -> tuple[list[str], list[str]]:
    """(queries, section texts), one pair per judged section of a training-half query."""
    training, _ = training_queries(settings, passages=None)
    pairs = [(query.text, sections[doc]) for query in training for doc in query.grades
             if doc in sections]
    return [query for query, _ in pairs], [section for _, section in pairs]


def distilled_static(settings: Settings):
    """The static model distilled from the packaged MiniLM (a model2vec StaticModel)."""
    from model2vec import StaticModel

    return StaticModel.from_pretrained(str(static_folder(packaged_minilm_path(),
                                                         settings.models_dir)))


def train_static(base, queries: list[str], sections: list[str]):
    """`base` (a StaticModel) trained on the pairs."""
    from model2vec.train import StaticModelForPairSimilarity

    model = StaticModelForPairSimilarity.from_static_model(model=base, n_layers=0)
    model.fit(text_a=queries, text_b=sections, batch_size=BATCH_SIZE, max_epochs=EPOCHS,
              early_stopping_patience=None)
    return model.to_static_model()


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9)


def section_matrix(model, sections: Mapping[str, str]) -> tuple[list[str], np.ndarray]:
    """(doc ids in order, their unit vectors): encoded once per model, searched per set."""
    ids = sorted(sections)
    return ids, _unit(model.encode([sections[doc] for doc in ids], show_progress_bar=False))


def dense_hits(model, ids: list[str], matrix: np.ndarray, queries: Mapping[str, str]
               ) -> dict[str, list[Hit]]:
    """qid -> the DEPTH sections nearest the query by cosine, ties by doc id (`ids` is
    sorted and the sort stable)."""
    qids = sorted(queries)
    scores = _unit(model.encode([queries[qid] for qid in qids], show_progress_bar=False)
                   ) @ matrix.T
    return {qid: [Hit(ids[j], float(row[j]), "dense-trained")
                  for j in np.argsort(-row, kind="stable")[:DEPTH]]
            for qid, row in zip(qids, scores, strict=True)}


def _file_hits(path) -> dict[str, list[Hit]]:
    frame = read_trec(path)
    return {qid: [Hit(doc, score, path.stem) for doc, score in
                  zip(group["doc_id"], group["score"], strict=True)][:DEPTH]
            for qid, group in frame.groupby("qid", sort=True)}


def held_out_sets(settings: Settings) -> list[tuple[QuerySet, dict[str, dict[str, int]]]]:
    """nyaya-statutes' held-out half and cited-statutes' evaluated held-out queries."""
    return [(queryset, held_out_qrels(queryset)) for queryset in (
        load_queryset("nyaya-statutes"),
        load_dev_set("cited-statutes", settings.corpus_root, settings.warehouse))]


def figures(settings: Settings, sections: Mapping[str, str], models: Mapping[str, object]
            ) -> pd.DataFrame:
    """Per held-out set: the packaged dense branch and each model alone over `sections`, then
    each fused with the BM25 and similar-case branches."""
    encoded = {name: section_matrix(model, sections) for name, model in models.items()}
    rows = []
    for queryset, qrels in held_out_sets(settings):
        texts = {qid: text for qid, text in zip(queryset.queries["qid"],
                                                 queryset.queries["query"], strict=True)
                 if qid in qrels}
        folder = settings.data_dir / "runs" / queryset.name
        branches = {name: _file_hits(folder / f"{name}.trec")
                    for name in (PACKAGED_DENSE, *FUSED_WITH)}
        dense = {PACKAGED_DENSE: branches[PACKAGED_DENSE],
                 **{name: dense_hits(model, *encoded[name], texts)
                    for name, model in models.items()}}
        for name, hits in dense.items():
            fused = {qid: rrf({name: hits.get(qid, []),
                               **{other: branches[other].get(qid, []) for other in FUSED_WITH}})
                     for qid in texts}
            for label, run in ((name, hits), (f"rrf({name}, {', '.join(FUSED_WITH)})", fused)):
                frame = rank_frame({qid: [(hit.doc_id, hit.score, hit.method)
                                          for hit in run.get(qid, [])] for qid in texts})
                rows.append({"set": queryset.name, "queries": len(qrels), "run": label,
                             **evaluate_run(frame, qrels, METRICS)})
    return pd.DataFrame(rows)


def main() -> None:
    settings = Settings.from_env()
    sections = section_texts(settings)
    queries, texts = training_pairs(settings, sections)
    distilled = distilled_static(settings)
    started = time.perf_counter()
    trained = train_static(distilled, queries, texts)
    print(f"trained on {len(queries):,} pairs in {time.perf_counter() - started:.0f} s "
          f"({EPOCHS} epochs, batches of {BATCH_SIZE})")
    table = figures(settings, sections,
                    {"minilm-static": distilled, "minilm-static-trained": trained})
    print(table.to_markdown(index=False, floatfmt=".3f"))


if __name__ == "__main__":
    main()
