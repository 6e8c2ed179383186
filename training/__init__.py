"""Reproducing the retrieval model from the documents: the library, the pairs, the training."""
