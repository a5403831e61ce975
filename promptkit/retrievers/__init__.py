"""Stage 1: for each test row, the indices of the pool rows to use as shots."""

from promptkit.retrievers.base import Retriever
from promptkit.retrievers.bm25 import BM25Retriever
from promptkit.retrievers.dpp import DPPRetriever
from promptkit.retrievers.fixk import FixKRetriever
from promptkit.retrievers.mdl import MDLRetriever
from promptkit.retrievers.random import RandomRetriever
from promptkit.retrievers.sliding_window import SlidingWindowRetriever
from promptkit.retrievers.topk import TopkRetriever
from promptkit.retrievers.votek import VotekRetriever
from promptkit.retrievers.zero import ZeroRetriever

__all__ = ["BM25Retriever", "DPPRetriever", "FixKRetriever", "MDLRetriever", "RandomRetriever", "Retriever", "SlidingWindowRetriever", "TopkRetriever", "VotekRetriever", "ZeroRetriever"]
