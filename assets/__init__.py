"""Thin Dagster assets, one module per stage; the logic they call lives in `nyaya` and `evals`."""
