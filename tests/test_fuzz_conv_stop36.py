"""Stop 36 (helper conv36): conv{1,2,3}d / conv_transpose{1,2,3}d given inputs, weights
and biases of mismatched or unsupported dtypes, on autotensor and PyTorch: the exception
(type, message: aten's check order and each check's spelling of the type names), or the
result's dtype and shape (Note [Convolution dtype checks]; OPEN_FINDINGS.md, Stop 36
(conv36), the counts)."""
import pytest

import autotensor

torch = pytest.importorskip("torch")

_FNS = [("conv1d", 1), ("conv2d", 2), ("conv3d", 3), ("conv_transpose1d", 1),
        ("conv_transpose2d", 2), ("conv_transpose3d", 3)]
_DTS = ["float32", "float64", "bool", "int64", "int32", "uint8", "float16", "bfloat16",
        "complex64", "complex128"]


def scenario(mod, fn, nsp, xd, wd, bd, var="plain"):
    """One call: 4 input channels, 2 output channels, kernel 2 (variants: unbatched,
    groups=2, padding='same', dilation/stride 2, wrong channels, 2-d weight, 1-d input,
    wrong bias size, kernel larger than the (unbatched) input, groups=0, batch 1 with a 1x1
    kernel)."""
    tr = "transpose" in fn
    g = 2 if var == "groups" else 1
    xs = (2, 4) + (3,) * nsp
    if var in ("unbatched", "ubigk"):
        xs = xs[1:]
    if var == "baddims":
        xs = (4,)
    if var == "n1k1":
        xs = (1, 4) + (3,) * nsp
    k = 1 if var == "n1k1" else 5 if var in ("bigk", "ubigk") else 2
    ws = (4, 2 // g) + (k,) * nsp if tr else (2, 4 // g) + (k,) * nsp
    if var == "badch":
        ws = (5, 2) + (k,) * nsp if tr else (2, 5) + (k,) * nsp
    if var == "badw":
        ws = (2, 4)
    x = mod.ones(xs).to(getattr(mod, xd))
    w = mod.ones(ws).to(getattr(mod, wd))
    b = None if bd is None else mod.ones(3 if var == "badbias" else 2).to(getattr(mod, bd))
    kw = {"groups": g} if g > 1 else {}
    kw.update({"same": {"padding": "same"}, "dil": {"dilation": 2}, "stride": {"stride": 2},
               "badgroups": {"groups": 0}}.get(var, {}))
    try:
        y = getattr(mod.nn.functional, fn)(x, w, b, **kw)
    except Exception as e:  # noqa: BLE001  (the exception is the result compared)
        return type(e).__name__, str(e)
    return str(y.dtype).replace("autotensor", "torch"), tuple(y.shape)


def _check(*args):
    assert scenario(autotensor, *args) == scenario(torch, *args)


# (fn, nsp, input, weight, bias, variant): one case of each class that differed
_CASES = [
    ("conv2d", 2, "float32", "float64", None, "plain"),  # (mkldnn: legacy names)
    ("conv1d", 1, "float32", "bfloat16", None, "plain"),  # ("CPUBFloat16Type")
    ("conv2d", 2, "bfloat16", "float32", None, "plain"),
    ("conv3d", 3, "float32", "complex64", None, "plain"),
    ("conv2d", 2, "float32", "float32", "float64", "plain"),  # (C++ names: float, double)
    ("conv1d", 1, "int64", "bool", "float64", "plain"),  # (the bias first: long int)
    ("conv3d", 3, "float16", "float16", "complex64", "plain"),  # (c10::Half)
    ("conv2d", 2, "bfloat16", "float64", "uint8", "plain"),  # (c10::BFloat16)
    ("conv2d", 2, "complex64", "float32", None, "plain"),  # (complex_convolution's)
    ("conv_transpose2d", 2, "complex128", "complex128", "float64", "plain"),
    ("conv2d", 2, "bool", "bool", None, "plain"),  # ("slow_conv2d_cpu")
    ("conv1d", 1, "bool", "float32", None, "plain"),
    ("conv3d", 3, "bool", "int64", None, "plain"),  # ("compute_columns3d")
    ("conv3d", 3, "bool", "bool", None, "n1k1"),  # ("slow_conv3d_cpu": no im2col)
    ("conv2d", 2, "bool", "bool", None, "dil"),  # ("slow_conv_dilated<>")
    ("conv_transpose2d", 2, "int32", "int32", None, "plain"),  # (floating types and Long)
    ("conv_transpose3d", 3, "uint8", "float32", None, "plain"),
    ("conv_transpose1d", 1, "bool", "bool", None, "plain"),
    ("conv_transpose2d", 2, "float32", "float32", "float64", "plain"),  # (mkldnn's bias)
    ("conv_transpose1d", 1, "int64", "int64", "float32", "plain"),  # (add_'s cast check)
    ("conv_transpose3d", 3, "float64", "float64", "float32", "plain"),  # (refused)
    ("conv2d", 2, "float32", "float16", None, "groups"),  # (groups > 1: mkldnn)
    ("conv2d", 2, "float32", "float32", "float64", "same"),  # (no conv2d bias check)
    ("conv3d", 3, "int64", "int64", "float64", "same"),  # (slow_conv3d casts the bias)
    ("conv2d", 2, "float64", "float32", "float32", "baddims"),  # (bias check first)
    ("conv2d", 2, "complex64", "float64", None, "badw"),  # (before the shape checks)
    ("conv2d", 2, "float32", "float64", None, "bigk"),  # (after them)
    ("conv_transpose2d", 2, "float32", "float32", "float32", "badbias"),
    ("conv1d", 1, "float32", "float64", "float32", "bigk"),
    ("conv2d", 2, "float64", "float64", None, "ubigk"),  # (unbatched: also checked)
    ("conv2d", 2, "float32", "float64", None, "stride"),
]


@pytest.mark.parametrize("case", _CASES, ids=lambda c: "-".join(map(str, c)))
def test_conv_dtype_case(case):
    _check(*case)


@pytest.mark.parametrize("fn,nsp", _FNS)
def test_conv_dtype_sweep(fn, nsp):
    """Every (input, weight, bias) dtype triple of _DTS."""
    bad = [(xd, wd, bd) for xd in _DTS for wd in _DTS for bd in [None] + _DTS
           if scenario(autotensor, fn, nsp, xd, wd, bd) != scenario(torch, fn, nsp, xd, wd, bd)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("var", ["unbatched", "groups", "same", "dil", "stride", "badch",
                                 "badw", "baddims", "badbias", "bigk", "ubigk", "badgroups",
                                 "n1k1"])
def test_conv_dtype_variants(var):
    sm = ["float32", "float64", "bool", "int64", "float16", "bfloat16", "complex64"]
    bad = []
    for fn, nsp in _FNS:
        if var == "same" and "transpose" in fn:
            continue
        for xd in sm:
            for wd in sm:
                for bd in (None, xd, "float64" if xd != "float64" else "float32"):
                    if scenario(autotensor, fn, nsp, xd, wd, bd, var) != scenario(
                            torch, fn, nsp, xd, wd, bd, var):
                        bad.append((fn, xd, wd, bd))
    assert not bad, bad[:5]
