"""Supreme Court judgments: readers for the corpus sources and the tables built from them."""
