"""nyaya: the plain-Python core (no Dagster imports) behind the pipeline's assets."""
