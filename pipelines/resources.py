"""Resources: where the corpus and data live, and the Parquet IO manager for every table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import dagster as dg
import pandas as pd

from nyaya.settings import Settings, resolve
from nyaya.tables import Part, PartTables, read_table, write_table


class NyayaSettings(dg.ConfigurableResource):
    """The settings; empty strings mean 'from the environment or the default'."""

    corpus_root: str = ""
    data_dir: str = ""
    qdrant_url: str = ""
    judgments_dataset: str = ""
    embedder: str = ""
    chunk_embedder: str = ""
    models_dir: str = ""
    # the regression baseline YAML; empty: evals/baselines/regression.yaml (regression_deltas
    # resolves it, so that no asset's code version holds the evaluation library's)
    baseline_path: str = ""

    def resolved(self) -> Settings:
        """The environment's settings with this resource's non-empty fields over them (a data
        folder set here also moves the embedded store into it)."""
        base = Settings.from_env()
        overrides: dict = {}
        if self.data_dir:
            overrides |= {"data_dir": resolve(self.data_dir),
                          "qdrant_path": resolve(self.data_dir) / "qdrant"}
        if self.corpus_root:
            overrides["corpus_root"] = resolve(self.corpus_root)
        if self.models_dir:
            overrides["models_root"] = resolve(self.models_dir)
        for name in ("qdrant_url", "judgments_dataset", "embedder", "chunk_embedder"):
            if getattr(self, name):
                overrides[name] = getattr(self, name)
        return replace(base, **overrides)


class ParquetIOManager(dg.ConfigurableIOManager):
    """Each table at <data_dir>/warehouse/<asset_name>.parquet, with row count and schema.

    A partitioned asset returns {partition key: DataFrame} for the partitions of its run and
    each is written to <asset_name>/<partition key>.parquet; a downstream asset reads the
    partitions it depends on as one DataFrame (all of them, for an unpartitioned one). A parts
    asset returns {partition key: Part} instead: each of the part's tables is written to
    <asset_name>/<table>/<partition key>.parquet with the part's provenance in its footer, and
    a downstream asset gets them as `PartTables` (each table read when first used). The
    warehouse is the settings resource's: one data folder for the tables and everything else."""

    settings: NyayaSettings

    def _warehouse(self) -> Path:
        return self.settings.resolved().warehouse

    def _path(self, key: dg.AssetKey, partition: str | None = None) -> Path:
        name = key.path[-1]
        if partition is None:
            return self._warehouse() / f"{name}.parquet"
        return self._warehouse() / name / f"{partition}.parquet"

    def handle_output(self, context: dg.OutputContext, obj: pd.DataFrame | dict) -> None:
        asset = context.asset_key.to_user_string()
        if context.has_asset_partitions:
            expected = set(context.asset_partition_keys)
            if not isinstance(obj, dict) or set(obj) != expected:
                got = sorted(obj) if isinstance(obj, dict) else type(obj).__name__
                raise TypeError(f"{asset}: expected one DataFrame per partition of the run "
                                f"{sorted(expected)}, got {got}")
            path = self._warehouse() / context.asset_key.path[-1]
            tables, provenance = {}, {}
            for key, value in obj.items():
                if isinstance(value, Part):
                    for name, frame in value.tables.items():
                        tables[path / name / f"{key}.parquet"] = frame
                        provenance[path / name / f"{key}.parquet"] = value.provenance
                else:
                    tables[self._path(context.asset_key, key)] = value
        elif isinstance(obj, pd.DataFrame):
            path = self._path(context.asset_key)
            tables, provenance = {path: obj}, {}
        else:
            raise TypeError(f"{asset}: expected a DataFrame, got {type(obj).__name__}")
        schema = None
        for table_path, frame in tables.items():
            if not isinstance(frame, pd.DataFrame):
                raise TypeError(f"{asset}: {table_path.name} is a {type(frame).__name__}, "
                                "not a DataFrame")
            schema = write_table(frame, table_path, provenance.get(table_path)).schema
        metadata = output_paths(path, self.settings.resolved().data_dir)
        if not context.has_asset_partitions:  # a partition's rows are its own (the asset
            # reports them: assets.sources.report_partitions), not the run's
            metadata["dagster/row_count"] = len(obj)
            if isinstance(obj, pd.DataFrame) and len(obj):
                metadata["sample_rows"] = sample_rows(obj)
        if provenance:  # parts: several tables, so no one column schema
            metadata["tables"] = sorted({table.parent.name for table in tables})
        else:
            metadata["dagster/column_schema"] = dg.TableSchema(columns=[
                dg.TableColumn(field.name, str(field.type)) for field in schema or []])
        context.add_output_metadata(metadata)

    def load_input(self, context: dg.InputContext) -> pd.DataFrame | PartTables:
        if not context.has_asset_partitions:
            return read_table(self._path(context.asset_key))
        folder = self._warehouse() / context.asset_key.path[-1]
        if folder.is_dir() and any(p.is_dir() for p in folder.iterdir()):
            return PartTables(folder, list(context.asset_partition_keys))
        frames = [read_table(self._path(context.asset_key, key))
                  for key in sorted(context.asset_partition_keys)]
        return pd.concat(frames, ignore_index=True)


#: An output's place inside the data folder, recorded beside its absolute path: freshness
#: checks the files where the data folder is now (copied, moved or restored), not where it was.
DATA_PATH = "data_path"


def output_paths(path: Path, data_dir: Path) -> dict:
    """The metadata naming an output: its absolute `path` (for the UI) and, inside the data
    folder, its `data_path` relative to it."""
    metadata: dict = {"path": dg.MetadataValue.path(str(path))}
    if path.is_relative_to(data_dir):
        metadata[DATA_PATH] = dg.MetadataValue.text(str(path.relative_to(data_dir)))
    return metadata


SAMPLE_ROWS = 5
SAMPLE_CHARS = 80


def sample_rows(frame: pd.DataFrame) -> dg.TableMetadataValue:
    """The first rows as the UI's table, each cell on one line and cut to SAMPLE_CHARS: what
    a quarantine or review queue holds, seen without opening the Parquet file."""
    def cell(value: object) -> str | int | float | bool | None:
        if value is None or (isinstance(value, float) and value != value):
            return None
        if isinstance(value, bool | int | float):
            return value
        text = " ".join(str(value).split())
        return text if len(text) <= SAMPLE_CHARS else text[:SAMPLE_CHARS - 1] + "…"

    columns = [str(column) for column in frame.columns]
    records = [dg.TableRecord(dict(zip(columns, map(cell, row), strict=True)))
               for row in frame.head(SAMPLE_ROWS).itertuples(index=False)]
    return dg.MetadataValue.table(records, schema=dg.TableSchema(columns=[
        dg.TableColumn(column) for column in columns]))


def project_resources(settings: NyayaSettings | None = None) -> dict:
    """The resources every asset needs, over one settings resource (the environment's when
    None): the settings and the Parquet IO manager that writes into its data folder."""
    settings = settings or NyayaSettings()
    return {"settings": settings, "io_manager": ParquetIOManager(settings=settings)}
