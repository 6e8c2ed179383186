"""Fine-tune the packaged all-MiniLM-L6-v2 on mined pairs, on the CPU, reproducibly (fixed seed, one thread
order): MultipleNegativesRankingLoss, each anchor scored against every positive and hard negative of its batch.

A plain torch loop over the transformers model, pooled as sentence-transformers pools it (mean over real
tokens, normalised): the Trainer of sentence-transformers would add `datasets` and `accelerate` for nothing.
"""
from __future__ import annotations

import json
import random
from collections import Counter
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from training.pairs import Pair


@dataclass(frozen=True)
class Settings:
    epochs: int = 1
    batch_size: int = 32
    learning_rate: float = 2e-5
    warmup: float = 0.1
    scale: float = 20.0  # cosine × scale: the temperature MultipleNegativesRankingLoss uses
    anchor_tokens: int = 48
    passage_tokens: int = 96
    seed: int = 0


def batches(pairs: list[Pair], size: int, rng: random.Random) -> list[list[Pair]]:
    """The pairs shuffled into batches in which no text repeats: a repeated positive would be counted as
    another anchor's negative. A pair that would repeat one waits for a later batch."""
    pending = pairs[:]
    rng.shuffle(pending)
    result = []
    while pending:
        batch, seen, later = [], set(), []
        for p in pending:
            texts = {p.anchor, p.positive, p.negative}
            if len(batch) < size and not texts & seen:
                batch.append(p)
                seen |= texts
            else:
                later.append(p)
        result.append(batch)
        pending = later
    return [batch for batch in result if len(batch) > 1]


def pooled(model, tokenizer, texts: list[str], limit: int):
    """Mean over real tokens, normalised: how sentence-transformers pools MiniLM (and how the ONNX export does)."""
    import torch
    encoded = tokenizer(texts, padding=True, truncation=True, max_length=limit, return_tensors="pt")
    hidden = model(**encoded).last_hidden_state
    mask = encoded["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
    return torch.nn.functional.normalize(pooled, p=2, dim=1)


def optimise(base: Path, out: Path, plan: list, loss_of, learning_rate: float, warmup: float,
             log=print) -> tuple[list[float], float]:
    """Fine-tune the model in `base` over the batches of `plan`, `loss_of(model, tokenizer, batch)` giving each
    batch's loss: AdamW, linear warm-up over the first `warmup` share of the steps then linear decay, gradients
    clipped at 1; save model and tokenizer in `out`. Each step's loss and the seconds taken."""
    import torch
    from transformers import AutoModel, AutoTokenizer, get_linear_schedule_with_warmup

    model = AutoModel.from_pretrained(str(base))
    tokenizer = AutoTokenizer.from_pretrained(str(base))
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
    schedule = get_linear_schedule_with_warmup(optimizer, int(len(plan) * warmup), len(plan))
    started, losses = time.perf_counter(), []
    for step, batch in enumerate(plan, start=1):
        loss = loss_of(model, tokenizer, batch)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        optimizer.zero_grad()
        losses.append(loss.item())
        if step % 20 == 0 or step == len(plan):
            log(f"step {step}/{len(plan)} loss {sum(losses[-20:]) / len(losses[-20:]):.3f} "
                f"{time.perf_counter() - started:.0f}s")
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out))
    tokenizer.save_pretrained(str(out))
    return losses, time.perf_counter() - started


def train(pairs: list[Pair], base: Path, out: Path, settings: Settings = Settings(), *, log=print) -> dict:
    """Train from the model in `base` on `pairs`, save model and tokenizer in `out`; the run's record (also
    written to out/training.json)."""
    import torch

    random.seed(settings.seed)
    torch.manual_seed(settings.seed)
    rng = random.Random(settings.seed)
    plan = [batch for _ in range(settings.epochs) for batch in batches(pairs, settings.batch_size, rng)]

    def loss_of(model, tokenizer, batch):
        anchors = pooled(model, tokenizer, [p.anchor for p in batch], settings.anchor_tokens)
        passages = pooled(model, tokenizer, [p.positive for p in batch] + [p.negative for p in batch],
                          settings.passage_tokens)
        return torch.nn.functional.cross_entropy(anchors @ passages.T * settings.scale, torch.arange(len(batch)))

    losses, seconds = optimise(base, out, plan, loss_of, settings.learning_rate, settings.warmup, log)
    record = {"settings": asdict(settings), "pairs": len(pairs), "kinds": dict(Counter(p.kind for p in pairs)),
              "sources": sorted({p.source for p in pairs}), "steps": len(plan),
              "seconds": round(seconds, 1), "final_loss": round(losses[-1], 4)}
    (out / "training.json").write_text(json.dumps(record, indent=1))
    return record
