"""Statute ingestion: parsers for each corpus format and the tables built from them."""
