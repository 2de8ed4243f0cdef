"""Training of the section encoder (`nyaya.retrieval.section_encoder` says what it is): the
static model distilled from the packaged MiniLM (`minilm-static`), trained with model2vec's pair
trainer (InfoNCE, in-batch negatives) on the training halves only: each training-half judgment's
passage with its statute citations masked, paired with every in-force section it cites
(cited-statutes' training half, by judgment), the question sets' training questions
(`evals.relevance.QUESTION_SETS`, by qid) with their judged sections, and CONTEXT_PAIRS of the
citing passages of training-half judgments with the sections they cite. No held-out query or
judgment is among them, and the configs that search with it are scored on held-out queries only.

`NYAYA_DATA=data .venv/bin/python -m evals.dense_training` trains on a built data folder and
prints how (what the section_encoder asset does, without writing the encoder). With
`--cross-fit` it chooses among fusions with the trained branch without reading a held-out
query: the training queries and the training judgments' cases fall in CROSS_FIT_FOLDS folds
(by a hash of the qid, or of the case for a judgment's passage), and CROSS_FIT_CONFIGS search
each fold with an encoder trained on the others."""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from unittest import mock

import pandas as pd
from tqdm import tqdm

from evals.citation_sets import duplicates_of
from evals.configs import load_config
from evals.metrics import evaluate_run
from evals.relevance import JudgedQuery, as_queryset, training_queries
from evals.runner import load_statute_resources, run_queryset
from evals.splits import CROSS_FIT_FOLDS, TRAIN, cross_fit_fold, split_of
from nyaya.index.embedders import (
    STATIC_DIMS,
    distill_static,
    packaged_minilm_path,
    static_folder,
)
from nyaya.index.store import VectorStore, open_store
from nyaya.retrieval.case_votes import section_successors
from nyaya.retrieval.citing_contexts import CitingPassage, citing_passages
from nyaya.retrieval.pipeline import StatuteSearch
from nyaya.retrieval.section_encoder import SectionEncoder, section_texts
from nyaya.settings import Settings
from nyaya.statutes.model import IN_FORCE
from nyaya.tables import read_table

EPOCHS = 5
BATCH_SIZE = 64
#: citing passages of training-half judgments trained on beside the development pairs (of about
#: 55,000); docs/retrieval-methods.md has what 10,000, 20,000 and all of them gave
CONTEXT_PAIRS = 20_000
#: pairs held back to measure the validation loss the trainer logs (model2vec needs two)
VALIDATION_PAIRS = 0.1
#: what `--cross-fit` compares: the trained branch alone, the packaged dense one, the best
#: untrained config of each set, and the fusions with the trained branch that were tried
CROSS_FIT_CONFIGS = ("dense-qdrant", "dense-trained", "contexts-sections", "lookup-contexts-rrf",
                     "lookup-contexts-trained-rrf", "lookup-trained-contexts-rrf",
                     "contexts-trained-rrf")
#: cited-statutes passages measured per fold (of about 530)
CROSS_FIT_PASSAGES = 100
CROSS_FIT_METRICS = ("map", "ndcg@10")


def training_pairs(queries: Iterable[JudgedQuery], sections: Mapping[str, str]
                   ) -> tuple[list[str], list[str]]:
    """(query texts, section texts): one pair per judged section of each query that is among
    `sections` (doc id -> text: the in-force sections a statute config searches)."""
    pairs = [(query.text, sections[doc]) for query in queries for doc in sorted(query.grades)
             if doc in sections]
    return [query for query, _ in pairs], [section for _, section in pairs]


def distilled_static(settings: Settings) -> Any:
    """The static model distilled from the packaged MiniLM (a model2vec StaticModel), which
    the `minilm-static` embedder distils into the models folder on first use."""
    from model2vec import StaticModel

    folder = static_folder(packaged_minilm_path(), settings.models_dir)
    if not (folder / "model.safetensors").is_file():
        distill_static(packaged_minilm_path(), folder, STATIC_DIMS)
    return StaticModel.from_pretrained(str(folder))


def train_model(base: Any, queries: list[str], sections: list[str]) -> Any:
    """`base` (a StaticModel) trained on the pairs (seeded: the same pairs give the same
    model); ValueError when there are too few pairs to train on."""
    import torch
    from model2vec.train import StaticModelForPairSimilarity

    held_back = max(2, round(len(queries) * VALIDATION_PAIRS))
    if len(queries) < held_back + 2:
        raise ValueError(f"{len(queries)} training pairs: the section encoder needs at least "
                         f"{held_back + 2} (are the development sets and nyaya-statutes' "
                         "training half built?)")
    model = StaticModelForPairSimilarity.from_static_model(model=base, n_layers=0)
    model._tokenize_ids = tokenized_once(model._tokenize_ids)
    # the trainer draws a progress bar per epoch, with no option to hide it: 20 bars of
    # carriage returns in a run's log. It builds `torch.optim.Adam`, which updates the whole
    # embedding matrix at every step op by op; the fused kernel does it in one pass
    # (docs/retrieval-methods.md). Both are patched for the fit only.
    with mock.patch("model2vec.train.trainer.tqdm", functools.partial(tqdm, disable=True)), \
            mock.patch("torch.optim.Adam", functools.partial(torch.optim.Adam, fused=True)):
        model.fit(text_a=queries, text_b=sections, batch_size=BATCH_SIZE, max_epochs=EPOCHS,
                  early_stopping_patience=None, test_size=held_back, device="cpu")
    return model.to_static_model()


def tokenized_once(tokenize: Callable[[list[str]], list[list[int]]]
                   ) -> Callable[[list[str]], list[list[int]]]:
    """`tokenize`, each distinct text tokenized on its first call only. The trainer tokenizes
    every batch again in every epoch, which was half its time; a text's ids do not depend on
    its batch, so the model comes out the same (docs/retrieval-methods.md)."""
    ids: dict[str, list[int]] = {}

    def tokenize_once(texts: list[str]) -> list[list[int]]:
        new = [text for text in dict.fromkeys(texts) if text not in ids]
        if new:
            ids.update(zip(new, tokenize(new), strict=True))
        return [ids[text] for text in texts]

    return tokenize_once


def _searched_sections(documents: pd.DataFrame) -> dict[str, str]:
    in_force = documents[documents["status"] == IN_FORCE]
    return dict(zip(in_force["doc_id"], section_texts(in_force), strict=True))


def case_passages(settings: Settings) -> list[tuple[str, CitingPassage]]:
    """The corpus's citing passages (`nyaya.retrieval.citing_contexts`), each with its case
    (the case's first doc id, which is a development query's qid): cut once, drawn from per
    training."""
    judgments = read_table(settings.warehouse / "judgments.parquet")
    cases = duplicates_of(judgments)
    passages = citing_passages(read_table(settings.warehouse / "citation_mentions.parquet"),
                               dict(zip(judgments["doc_id"], judgments["text"], strict=True)),
                               section_successors(settings.warehouse))
    return [(min(cases.get(passage.owner, {passage.owner})), passage) for passage in passages]


def context_pairs(passages: Iterable[tuple[str, CitingPassage]], sections: Mapping[str, str],
                  trains_on: Callable[[str], bool], count: int = CONTEXT_PAIRS
                  ) -> tuple[list[str], list[str]]:
    """(passage texts, section texts): `count` pairs drawn from the `passages` of the cases
    `trains_on` accepts, each paired with every section of `sections` it cites. A pair is drawn
    by the hash of its passage and section, not by a shuffle of them all: a table change that
    adds or removes a few pairs leaves the rest of the draw as it was (a shuffle redrew all
    20,000 when 117 sections left the in-force set, and the encoder's held-out MAP moved by
    0.03)."""
    pairs = sorted(((_draw_key(passage.text, section), passage.text, section)
                    for case, passage in passages if trains_on(case)
                    for section in passage.targets if section in sections))[:count]
    return [text for _, text, _ in pairs], [sections[section] for _, _, section in pairs]


def _draw_key(text: str, section: str) -> bytes:
    return hashlib.sha256(f"{section}\t{text}".encode()).digest()


def train(settings: Settings, log: Callable[[str], None] = print,
          training: list[JudgedQuery] | None = None,
          trains_on: Callable[[str], bool] = lambda case: split_of(case) == TRAIN,
          passages: list[tuple[str, CitingPassage]] | None = None) -> SectionEncoder:
    """The section encoder trained on the warehouse's training queries (or on `training`, a
    part of them) and on the citing passages (`case_passages`, cut here unless given) of the
    cases `trains_on` accepts (the training half's), with every section of the sections
    table encoded."""
    documents = read_table(settings.warehouse / "legal_sections_documents.parquet")
    if training is None:
        training, _ = training_queries(settings, passages=None)
    sections = _searched_sections(documents)
    queries, texts = training_pairs(training, sections)
    if passages is None:
        passages = case_passages(settings)
    passage_texts, cited = context_pairs(passages, sections, trains_on)
    log(f"section encoder: {len(queries):,} pairs from {len(training):,} training queries and "
        f"{len(passage_texts):,} citing passages")
    queries, texts = queries + passage_texts, texts + cited
    started = time.monotonic()
    model = train_model(distilled_static(settings), queries, texts)
    trained_in = time.monotonic() - started
    encoder = SectionEncoder.encoding(model, documents, {
        "base": "minilm-static", "epochs": EPOCHS, "batch_size": BATCH_SIZE,
        "training_pairs": len(queries), "citing_passage_pairs": len(passage_texts),
        "training_queries": pd.Series([query.queryset for query in training]
                                      ).value_counts().sort_index().to_dict(),
        "training_seconds": round(trained_in, 1)})
    encoder.figures["seconds"] = round(time.monotonic() - started, 1)
    log(f"section encoder trained in {trained_in:.0f}s, {len(documents):,} sections encoded "
        f"in {encoder.figures['seconds'] - trained_in:.0f}s")
    return encoder


def cross_fit(settings: Settings, store: VectorStore, configs: tuple[str, ...] = CROSS_FIT_CONFIGS,
              passages: int = CROSS_FIT_PASSAGES, log: Callable[[str], None] = print
              ) -> pd.DataFrame:
    """Each config's CROSS_FIT_METRICS over the training queries (every nyaya-statutes
    question, `passages` cited-statutes passages of each fold in a hashed order), each fold's
    queries searched with the encoder trained on the other folds' queries and cases."""
    training, _ = training_queries(settings, passages=None)
    shared = load_statute_resources(settings, store)
    passages = case_passages(settings)
    runs: dict[tuple[str, str], list[pd.DataFrame]] = {}
    qrels: dict[str, dict[str, dict[str, int]]] = {}
    for k in range(CROSS_FIT_FOLDS):
        encoder = train(settings, log, [query for query in training if query.fold != k],
                        lambda case, k=k: split_of(case) == TRAIN and cross_fit_fold(case) != k,
                        passages)
        resources = dataclasses.replace(shared, section_encoder=lambda encoder=encoder: encoder)
        chosen = sorted((query for query in training if query.fold == k),
                        key=lambda query: hashlib.sha256(query.qid.encode()).digest())
        for name, count in (("nyaya-statutes", None), ("cited-statutes", passages)):
            queryset = as_queryset(name, [query for query in chosen
                                           if query.queryset == name][:count])
            qrels.setdefault(name, {}).update(queryset.qrels)
            for config in configs:
                search = StatuteSearch(config, load_config(config).params, resources)
                runs.setdefault((config, name), []).append(
                    run_queryset(search, queryset, 100).run)
        log(f"cross-fit: fold {k + 1} of {CROSS_FIT_FOLDS} measured")
    return pd.DataFrame([{"config": config, "set": name, "queries": len(qrels[name]),
                          **evaluate_run(pd.concat(frames, ignore_index=True), qrels[name],
                                         CROSS_FIT_METRICS)}
                         for (config, name), frames in runs.items()])


def main(argv: list[str] | None = None) -> None:
    """Train on the data folder of NYAYA_DATA and print how, or (`--cross-fit`) the
    cross-fitted figures."""
    import json

    parser = argparse.ArgumentParser(prog="python -m evals.dense_training")
    parser.add_argument("--cross-fit", action="store_true",
                        help="measure the configs that fuse the trained branch on the "
                             "training queries, each fold with an encoder trained on the "
                             "others")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    if not args.cross_fit:
        print(json.dumps(train(settings).figures, indent=2))
        return
    store = open_store(settings.qdrant_path, read_only=True)
    try:
        table = cross_fit(settings, store)
    finally:
        store.close()
    counts = table.groupby("set")["queries"].first()
    print("cross-fitted queries: " + ", ".join(f"{name} {count}" for name, count in
                                               counts.items()))
    print(table.pivot(index="config", columns="set", values=list(CROSS_FIT_METRICS)).round(3)
          .to_markdown())


if __name__ == "__main__":
    main()
