"""Citation verification: the deterministic gate every model answer passes."""
