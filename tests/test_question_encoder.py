"""The question encoder's trainer (`training.encoder`, issue 41: measured by benchmarks/ranker.py, not shipped):
trained on questions as players ask them, against the passages' stored vectors, it moves the rulings that settle
those questions up; a game left out is neither a question nor a negative."""
from __future__ import annotations

import numpy as np
import pytest

from kb.onnx_embedder import embedder
from kb.retrieval import passages
from training.questions import corpus

pytestmark = pytest.mark.slow


def test_training_on_questions_moves_the_rulings_that_settle_them_up(conn, seeds_library, tmp_path):
    from training.encoder import Settings, TorchEncoder, fit

    asked = [q for q in corpus()["answerable"] if q["doc"] == "wizard-dice-rules"][:16]
    data = passages(conn)
    settling = [{rid for p in q["expect"] for rid, _ in seeds_library.holders(p, q["doc"])} for q in asked]

    def mrr(embed) -> float:
        found = []
        for question, rulings in zip(asked, settling):
            scores = data.vectors @ embed(question["question"])
            order = list(dict.fromkeys(data.rulings[i] for i in np.argsort(-scores)))
            found.append(1 / (1 + next(n for n, rid in enumerate(order) if rid in rulings)))
        return float(np.mean(found))

    before = mrr(embedder().embed)
    record = fit(conn, asked, tmp_path / "encoder", frozenset({"chess"}),
                 Settings(epochs=3, batch_size=8, learning_rate=1e-4), log=lambda _: None)
    assert record["questions"] == len(asked) and record["skipped"] == 0
    assert set(record["left_out"]) == {"chess", "magic"}
    assert record["passages"] == sum(1 for rid in data.rulings if not rid.startswith("chess/"))
    after = mrr(TorchEncoder(tmp_path / "encoder").embed)
    assert after > before + 0.1, (before, after)
