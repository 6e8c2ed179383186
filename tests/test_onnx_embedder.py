"""The torch-free query embedder agrees with sentence-transformers on the whole corpus, and answering never
exports it."""
import os
import subprocess
import sys

import numpy as np
import pytest

from kb.onnx_embedder import embedder, model_dir


@pytest.fixture(scope="module")
def reference():
    from sentence_transformers import SentenceTransformer
    return SentenceTransformer(str(model_dir()), device="cpu")


def test_onnx_embeddings_match_sentence_transformers_on_the_corpus(conn, reference):
    texts = [f"{r['title']} {r['text']}" for r in conn.execute("select title, text from rulings")]
    texts += ["Can a reserve army double its magic?", "x", "é" * 2000]
    expected = reference.encode(texts, normalize_embeddings=True)
    actual = np.array([embedder().embed(t) for t in texts])
    cosine = (expected * actual).sum(axis=1)
    assert cosine.min() >= 0.999


def test_onnx_embeddings_are_unit_vectors_of_the_model_size():
    vector = embedder().embed("Does Stoneskin stack?")
    assert vector.shape == (384,)
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


def test_a_missing_model_fails_naming_the_export_command_and_is_never_exported_on_the_read_path(built_db, tmp_path):
    missing = tmp_path / "model.onnx"
    code = f"from kb.store import connect; from kb.search import ask; ask(connect({str(built_db)!r}), 'Hi?')"
    run = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True,
                         env={**os.environ, "RULINGS_ONNX_MODEL": str(missing)})
    assert run.returncode != 0
    assert "ModelMissing" in run.stderr and "run `rulings export-model`" in run.stderr
    assert not missing.exists()
