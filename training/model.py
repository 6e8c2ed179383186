"""The trained model as the product runs it: exported to ONNX (pooled and normalised), and quantised to int8."""
from __future__ import annotations

from pathlib import Path


def export_quantized(model: Path) -> dict[str, Path]:
    """Export the transformers model in folder `model` to model/model.onnx (fp32) and model/model.int8.onnx
    (dynamic int8 quantisation of its weights); their paths by precision."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from kb.onnx_embedder import export
    fp32 = export(model / "model.onnx", source=model)
    int8 = model / "model.int8.onnx"
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8)
    return {"fp32": fp32, "int8": int8}
