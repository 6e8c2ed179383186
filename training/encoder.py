"""The question encoder: the packaged all-MiniLM-L6-v2 fine-tuned on the question corpus so that a question as a
player asks it lands near the passage of the ruling that settles it (issue 41: measured by leaving games out,
`benchmarks/ranker.py`; not shipped, docs/search.md says why).

Only the question side learns. The passages keep the vectors the packaged model gave them at ingest, so
`rulings.db`, every library built before, and every document added later would stay searchable as they are; a
question would be embedded by this encoder instead. Each question is scored against every passage of the training
library (all its games: the settling rule's own siblings, parents and neighbours, and the other games' look-alikes,
are the negatives), and the loss is the softmax's: the log of the probability that the best match is one of the
settling ruling's passages. With frozen passages that whole-library softmax costs one matrix product a batch.
"""
from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    """Fixed before any measurement (nothing here was tuned on a held-out game): the learning rate and epochs of
    sentence-transformers' fine-tuning examples for MiniLM, its loss's scale, questions' length in word pieces."""
    epochs: int = 3
    batch_size: int = 32
    learning_rate: float = 3e-5
    warmup: float = 0.1
    scale: float = 20.0
    tokens: int = 128
    seed: int = 0
    negatives: str = "library"  # "library": every passage; "game": the settling ruling's game's; "both": the sum


@dataclass(frozen=True)
class Example:
    """A question as search embeds it, and the ruling ids that settle it."""
    text: str
    rulings: frozenset[str]


def train(examples: list[Example], passage_rulings: list[str], vectors, base: Path, out: Path,
          settings: Settings = Settings(), *, log=print) -> dict:
    """Fine-tune the model in `base` on `examples` against the frozen passages (`passage_rulings[i]` is the ruling
    of row i of `vectors`), save model and tokenizer in `out`; the run's record (also out/training.json).
    Examples none of whose rulings has a passage are skipped."""
    import numpy as np
    import torch

    from training.train import optimise, pooled

    random.seed(settings.seed)
    torch.manual_seed(settings.seed)
    rows: dict[str, list[int]] = {}
    for index, ruling in enumerate(passage_rulings):
        rows.setdefault(ruling, []).append(index)
    usable = [(e.text, sorted(i for r in e.rulings for i in rows.get(r, []))) for e in examples]
    usable = [(text, positives) for text, positives in usable if positives]
    passages = torch.from_numpy(np.ascontiguousarray(vectors, dtype=np.float32))
    games = sorted({ruling.split("/")[0] for ruling in passage_rulings})
    passage_game = torch.tensor([games.index(ruling.split("/")[0]) for ruling in passage_rulings])
    rng = random.Random(settings.seed)
    plan = []
    for _ in range(settings.epochs):
        order = usable[:]
        rng.shuffle(order)
        plan += [order[i:i + settings.batch_size] for i in range(0, len(order), settings.batch_size)]

    def loss_of(model, tokenizer, batch):
        scores = pooled(model, tokenizer, [text for text, _ in batch], settings.tokens) @ passages.T * settings.scale
        mask = torch.zeros_like(scores, dtype=torch.bool)
        for row, (_, positives) in enumerate(batch):
            mask[row, positives] = True
        settled = torch.logsumexp(scores.masked_fill(~mask, float("-inf")), 1)
        # −log P(a settling passage): logsumexp over the passages competing minus logsumexp over the settling ones.
        loss = torch.zeros(())
        if settings.negatives in ("library", "both"):
            loss = loss + (torch.logsumexp(scores, 1) - settled).mean()
        if settings.negatives in ("game", "both"):
            asked = passage_game[torch.tensor([positives[0] for _, positives in batch])]
            own = passage_game[None, :] == asked[:, None]
            loss = loss + (torch.logsumexp(scores.masked_fill(~own, float("-inf")), 1) - settled).mean()
        return loss

    losses, seconds = optimise(base, out, plan, loss_of, settings.learning_rate, settings.warmup, log)
    record = {"settings": asdict(settings), "questions": len(usable), "skipped": len(examples) - len(usable),
              "passages": len(passage_rulings), "steps": len(plan),
              "seconds": round(seconds, 1), "final_loss": round(losses[-1], 4) if losses else None}
    (out / "training.json").write_text(json.dumps(record, indent=1))
    return record


def searched(conn, question: str) -> str:
    """The question as search embeds it when no game is given: without the name of a game it names
    (`kb.search.recognise_game`)."""
    from kb.lexicon import load_lexicon
    from kb.query import named_game, without_game_name
    lexicon = load_lexicon(conn)
    return without_game_name(question, lexicon.games, named_game(question, lexicon.games)) or question


def fit(conn, questions: list[dict], out: Path, leave_out: frozenset[str] = frozenset(),
        settings: Settings = Settings(), *, log=print) -> dict:
    """Train an encoder at `out` on the answerable `questions` (training.questions) of every game but those in
    `leave_out` and those of the held-out documents (Magic), against the passages of a library database (`conn`,
    with `question_documents`) of those games only: a game left out is neither a question nor a negative. The
    run's record."""
    from kb.onnx_embedder import model_dir
    from kb.retrieval import passages
    from training.questions import Library, documents

    leave_out = leave_out | {d.game for d in documents() if d.heldout}
    library, data = Library(conn), passages(conn)
    keep = [i for i, rid in enumerate(data.rulings) if rid.split("/")[0] not in leave_out]
    examples = [Example(searched(conn, item["question"]),
                        frozenset(rid for phrase in item["expect"] for rid, _ in library.holders(phrase, item["doc"])))
                for item in questions if item["game"] not in leave_out]
    return {"left_out": sorted(leave_out),
            **train(examples, [data.rulings[i] for i in keep], data.vectors[keep], model_dir(), out, settings, log=log)}


class TorchEncoder:
    """A trained question encoder run with torch, `embed(text)` as `kb.onnx_embedder.OnnxEmbedder.embed` (for
    measuring a fold's encoder without exporting it)."""

    def __init__(self, path: Path, tokens: int = Settings.tokens):
        import torch
        from transformers import AutoModel, AutoTokenizer
        torch.set_num_threads(2)
        self.model = AutoModel.from_pretrained(str(path)).eval()
        self.tokenizer = AutoTokenizer.from_pretrained(str(path))
        self.tokens = tokens
        self.memo: dict[str, object] = {}

    def embed(self, text: str):
        import torch
        if text not in self.memo:
            with torch.no_grad():
                from training.train import pooled
                self.memo[text] = pooled(self.model, self.tokenizer, [text], self.tokens)[0].numpy()
        return self.memo[text]

