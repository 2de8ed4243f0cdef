"""Where things are: the corpus, the data directory and the vector store.

One setting each, from the environment, with defaults that work from a checkout with
`../shared` beside it. Relative paths are taken from the project root, not the working
directory, so `nyaya` behaves the same from any folder.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = "../shared/corpus"
DEFAULT_DATA = "data"


def resolve(path: str | os.PathLike) -> Path:
    path = Path(path).expanduser()
    return path if path.is_absolute() else (PROJECT_ROOT / path).resolve()


CHUNKED_COLLECTIONS = ("legal_sub_sections", "sc_judgments")
DEFAULT_EMBEDDER = "minilm-int8"
DEFAULT_CHUNK_EMBEDDER = "minilm-static"


class SettingsError(ValueError):
    """An environment variable whose value cannot work; the message names the variable."""


def _embedder(variable: str, default: str) -> str:
    """The embedder a variable names, refused now and by variable: load_embedder would refuse
    it only when embedding starts, naming the embedder alone."""
    name = os.environ.get(variable) or default
    if name != default:
        # numpy only, no torch; imported when the variable is set, to keep this module light
        from nyaya.index.embedders import EMBEDDERS

        if name not in EMBEDDERS:
            raise SettingsError(f"{variable}={name!r} is not an embedder; choose one of "
                                f"{sorted(EMBEDDERS)}")
    return name


@dataclass(frozen=True)
class Settings:
    corpus_root: Path
    data_dir: Path
    qdrant_path: Path  # embedded Qdrant Edge shard directory (the default store)
    qdrant_url: str | None  # a Qdrant server; when set it is used instead of the embedded store
    judgments_dataset: str | None = None  # extra judgments: a datasets file/folder or hub id
    qdrant_api_key: str | None = None  # for a Qdrant server
    # names from nyaya.index.embedders.EMBEDDERS: `embedder` for the sections (and the
    # transition context), `chunk_embedder` for the 124k sub-section units and 188k judgment
    # chunks, where a transformer would take hours on a CPU
    embedder: str = DEFAULT_EMBEDDER
    chunk_embedder: str = DEFAULT_CHUNK_EMBEDDER
    bge_m3_path: Path | None = None  # BGE-M3 weights on disk, for the bge-m3 embedder
    models_root: Path | None = None  # derived models (the distilled static one); data/models
    # an OpenAI-compatible endpoint (".../v1") for the optional LLM validators and segment judge;
    # unset means off. No default model: the name is recorded as who judged, so it must be the
    # one the endpoint serves (nyaya.verify.llm.LlmEndpoint.from_settings requires it)
    llm_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str | None = None

    @classmethod
    def from_env(cls) -> Settings:
        data_dir = resolve(os.environ.get("NYAYA_DATA", DEFAULT_DATA))
        return cls(
            corpus_root=resolve(os.environ.get("NYAYA_CORPUS", DEFAULT_CORPUS)),
            data_dir=data_dir,
            qdrant_path=resolve(os.environ.get("NYAYA_QDRANT_PATH", data_dir / "qdrant")),
            qdrant_url=os.environ.get("NYAYA_QDRANT_URL") or None,
            judgments_dataset=os.environ.get("NYAYA_JUDGMENTS_DATASET") or None,
            qdrant_api_key=os.environ.get("NYAYA_QDRANT_API_KEY") or None,
            embedder=_embedder("NYAYA_EMBEDDER", DEFAULT_EMBEDDER),
            chunk_embedder=_embedder("NYAYA_CHUNK_EMBEDDER", DEFAULT_CHUNK_EMBEDDER),
            bge_m3_path=resolve(os.environ["NYAYA_BGE_M3_PATH"])
            if os.environ.get("NYAYA_BGE_M3_PATH") else None,
            models_root=resolve(os.environ["NYAYA_MODELS"])
            if os.environ.get("NYAYA_MODELS") else None,
            llm_url=os.environ.get("NYAYA_LLM_URL") or None,
            llm_api_key=os.environ.get("NYAYA_LLM_API_KEY") or None,
            llm_model=os.environ.get("NYAYA_LLM_MODEL") or None,
        )

    @property
    def warehouse(self) -> Path:
        return self.data_dir / "warehouse"

    def embedder_of(self, collection: str) -> str:
        """The embedder a collection's vectors (and its queries) are made with."""
        return self.chunk_embedder if collection in CHUNKED_COLLECTIONS else self.embedder

    @property
    def models_dir(self) -> Path:
        return self.models_root or self.data_dir / "models"

    @property
    def embeddings_dir(self) -> Path:
        return self.data_dir / "embeddings"

    @property
    def vectors_dir(self) -> Path:
        return self.data_dir / "vectors"

    @property
    def faiss_dir(self) -> Path:
        return self.data_dir / "faiss"

    def table_path(self, name: str) -> Path:
        return self.warehouse / f"{name}.parquet"

    def require_corpus(self) -> Path:
        readme = self.corpus_root / "README.md"
        if not (self.corpus_root / "statutes").is_dir():
            raise FileNotFoundError(
                f"corpus not found at {self.corpus_root} (no statutes/ folder; "
                f"{'README present' if readme.exists() else 'no README'}): set NYAYA_CORPUS "
                "to the folder holding statutes/, mappings/ and judgments/"
            )
        return self.corpus_root
