"""Resources: where the corpus and data live, and the Parquet IO manager for every table."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pandas as pd

from nyaya.settings import Settings, resolve
from nyaya.tables import read_table, write_table


class NyayaSettings(dg.ConfigurableResource):
    """The settings; empty strings mean 'from the environment or the default'."""

    corpus_root: str = ""
    data_dir: str = ""
    qdrant_url: str = ""
    judgments_dataset: str = ""
    embedder: str = ""
    chunk_embedder: str = ""
    models_dir: str = ""

    def resolved(self) -> Settings:
        base = Settings.from_env()
        data_dir = resolve(self.data_dir) if self.data_dir else base.data_dir
        return Settings(
            corpus_root=resolve(self.corpus_root) if self.corpus_root else base.corpus_root,
            data_dir=data_dir,
            qdrant_path=base.qdrant_path if not self.data_dir else data_dir / "qdrant",
            qdrant_url=self.qdrant_url or base.qdrant_url,
            judgments_dataset=self.judgments_dataset or base.judgments_dataset,
            qdrant_api_key=base.qdrant_api_key,
            embedder=self.embedder or base.embedder,
            chunk_embedder=self.chunk_embedder or base.chunk_embedder,
            bge_m3_path=base.bge_m3_path,
            models_root=resolve(self.models_dir) if self.models_dir else base.models_root,
        )


class ParquetIOManager(dg.ConfigurableIOManager):
    """Each table at <data_dir>/warehouse/<asset_name>.parquet, with row count and schema."""

    data_dir: str = ""

    def _path(self, key: dg.AssetKey) -> Path:
        data_dir = resolve(self.data_dir) if self.data_dir else Settings.from_env().data_dir
        return data_dir / "warehouse" / f"{key.path[-1]}.parquet"

    def handle_output(self, context: dg.OutputContext, obj: pd.DataFrame) -> None:
        if not isinstance(obj, pd.DataFrame):
            raise TypeError(f"{context.asset_key.to_user_string()}: expected a DataFrame, "
                            f"got {type(obj).__name__}")
        path = self._path(context.asset_key)
        table = write_table(obj, path)
        columns = [dg.TableColumn(field.name, str(field.type)) for field in table.schema]
        context.add_output_metadata({
            "dagster/row_count": len(obj),
            "dagster/column_schema": dg.TableSchema(columns=columns),
            "path": dg.MetadataValue.path(str(path)),
        })

    def load_input(self, context: dg.InputContext) -> pd.DataFrame:
        return read_table(self._path(context.asset_key))
