"""Citation extractors for running text: statute mentions and case citations."""
