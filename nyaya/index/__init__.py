"""Indexes: embedders, the embedding cache, sparse vectors, FAISS and the Qdrant store."""
