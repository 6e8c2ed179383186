"""The torch-free embedder agrees with sentence-transformers on the corpus (a quarter of it, and its longest
texts), gives the same vectors in batches as one at a time, ingest never imports torch, and answering never
exports the model."""
import os
import subprocess
import sys

import numpy as np
import pytest

from kb.embeddings import encode
from kb.onnx_embedder import embedder, model_dir


@pytest.fixture(scope="module")
def reference():
    from sentence_transformers import SentenceTransformer
    return SentenceTransformer(str(model_dir()), device="cpu")


ODD = ["Can a reserve army double its magic?", "x", "é" * 2000]
# Every fourth text and the longest ones (where truncation at the model's length shows): a quarter of the corpus
# checks the agreement as well as the whole did, in a quarter of the time (the whole took 3 minutes of the suite).
EVERY = 4
LONGEST = 12


def sample(texts: list[str]) -> list[str]:
    """Every EVERY-th of `texts` and the LONGEST longest, in their order."""
    longest = set(sorted(range(len(texts)), key=lambda i: -len(texts[i]))[:LONGEST])
    return [t for i, t in enumerate(texts) if i % EVERY == 0 or i in longest]


@pytest.fixture(scope="module")
def passages(conn, reference) -> dict:
    """The stored passages' texts (`sample`), then three odd ones, embedded once for the module's tests three
    ways: as ingest embeds them (`kb.embeddings.encode`: in batches, on every core), as a question is embedded
    (one at a time), and by the sentence-transformers model itself."""
    texts = sample([t for (t,) in conn.execute("select text from embeddings order by id")]) + ODD
    return {"texts": texts, "batched": encode(texts), "single": np.array([embedder().embed(t) for t in texts]),
            "reference": reference.encode(texts, normalize_embeddings=True)}


@pytest.mark.slow
def test_onnx_embeddings_match_sentence_transformers_on_the_corpus(passages):
    cosine = (passages["reference"] * passages["single"]).sum(axis=1)
    assert cosine.min() >= 0.999


def test_onnx_embeddings_are_unit_vectors_of_the_model_size():
    vector = embedder().embed("Does Stoneskin stack?")
    assert vector.shape == (384,)
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


@pytest.mark.slow
def test_batched_embeddings_equal_one_at_a_time(passages):
    assert np.abs(passages["batched"] - passages["single"]).max() < 1e-5


@pytest.mark.slow
def test_ingest_vectors_match_sentence_transformers_on_real_passages(passages):
    cosine = (passages["reference"] * passages["batched"]).sum(axis=1)
    assert cosine.min() >= 0.999


@pytest.mark.slow
def test_building_a_database_never_imports_torch_or_sentence_transformers(fresh_build):
    _, imported = fresh_build  # a new database: every passage was embedded
    assert imported == "[]"


def test_a_missing_model_fails_naming_the_export_command_and_is_never_exported_on_the_read_path(built_db, tmp_path):
    missing = tmp_path / "model.onnx"
    code = f"from kb.store import connect; from kb.search import ask; ask(connect({str(built_db)!r}), 'Hi?')"
    run = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True,
                         env={**os.environ, "RULINGS_ONNX_MODEL": str(missing)})
    assert run.returncode != 0
    assert "ModelMissing" in run.stderr and "run `rulings export-model`" in run.stderr
    assert not missing.exists()


def test_a_model_loading_in_the_background_is_waited_for_never_loaded_twice():
    code = ("from kb import onnx_embedder as e; e.warm_up(); v = e.question_vector('Can I block twice?'); "
            "w = e.embedder().embed('Can I block twice?'); print(e.embedder.cache_info().misses, (v == w).all())")
    run = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert run.stdout.split() == ["1", "True"]


def test_a_cold_ask_without_the_model_fails_once_naming_the_export_command(built_db, tmp_path):
    # the ask loads the model on a thread of its own while it reads the database: its failure is the ask's to say
    run = subprocess.run([sys.executable, "-m", "service.cli", "ask", "Hi?", "--db", str(built_db)], check=False,
                         capture_output=True, text=True, env={**os.environ, "RULINGS_ONNX_MODEL": str(tmp_path / "m")})
    assert run.returncode != 0
    assert "rulings export-model" in run.stderr and "Exception in thread" not in run.stderr
