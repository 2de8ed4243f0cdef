"""Retrievers: query text -> ranked doc ids with scores."""
