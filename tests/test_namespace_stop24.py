"""Namespace functions added in stop 24: torch.lstm_cell / gru_cell / rnn_tanh_cell /
rnn_relu_cell (aten's cells: values, gradients, graphs, checks), torch.frombuffer (shared
memory, PyTorch's checks), torch.empty_permuted, torch.constant_pad_nd, torch.channel_shuffle,
torch.nonzero_static:
run as one program on both modules."""
import warnings

import numpy as np
import pytest

import autotensor


def _graph(t, d=6):
    if t is None or d == 0:
        return None
    return (t.name(), [_graph(n, d - 1) for n, _ in t.next_functions])


def _cases(torch):
    f64 = torch.float64
    torch.manual_seed(0)
    x = torch.randn(2, 3, dtype=f64, requires_grad=True)
    h, c = torch.randn(2, 4, dtype=f64), torch.randn(2, 4, dtype=f64)
    wih = torch.randn(16, 3, dtype=f64, requires_grad=True)
    whh = torch.randn(16, 4, dtype=f64)
    bih, bhh = torch.randn(16, dtype=f64), torch.randn(16, dtype=f64)
    i32 = torch.int32
    return [
        lambda: torch.lstm_cell(x, (h, c), wih, whh, bih, bhh),
        lambda: torch.lstm_cell(x, (h, c), wih, whh),
        lambda: _graph(torch.lstm_cell(x, (h, c), wih, whh, bih, bhh)[0].grad_fn),
        lambda: torch.gru_cell(x, h, wih[:12], whh[:12], bih[:12], bhh[:12]),
        lambda: _graph(torch.gru_cell(x, h, wih[:12], whh[:12])[0].grad_fn),
        lambda: torch.rnn_tanh_cell(x, h, wih[:4], whh[:4], bih[:4]),
        lambda: torch.rnn_relu_cell(x, h, wih[:4], whh[:4]),
        lambda: torch.lstm_cell(torch.randn(2, 5), (h, c), wih, whh),
        lambda: torch.lstm_cell(x, (torch.randn(3, 4), c), wih, whh),
        lambda: torch.lstm_cell(x, (torch.randn(2, 5), c), wih, whh),
        lambda: torch.lstm_cell(x, (h, torch.randn(2, 5)), wih, whh),
        lambda: torch.gru_cell(x, torch.randn(2, 5), wih[:12], whh[:12]),
        lambda: torch.lstm_cell(x, h, wih, whh),
        lambda: torch.autograd.grad(torch.lstm_cell(x, (h, c), wih, whh, bih, bhh)[1].sum(),
                                    [x, wih]),
        lambda: torch.frombuffer(b"\x01\x02", dtype=torch.uint8),
        lambda: torch.frombuffer(bytearray(), dtype=torch.uint8),
        lambda: torch.frombuffer(bytearray(5), dtype=i32),
        lambda: torch.frombuffer(bytearray(8), dtype=i32, offset=2),
        lambda: torch.frombuffer(bytearray(8), dtype=i32, count=3),
        lambda: torch.frombuffer(bytearray(8), dtype=i32, offset=8),
        lambda: torch.frombuffer(bytearray(b"\x01\0\0\0\x02\0\0\0"), dtype=i32, count=1,
                                 offset=4),
        lambda: torch.frombuffer([1, 2], dtype=i32),
        lambda: torch.frombuffer(bytearray(8), dtype=torch.float32, requires_grad=True),
        lambda: torch.frombuffer(bytearray(8), dtype=i32, count=0),
        lambda: torch.empty_permuted((2, 3, 4), (2, 0, 1)).stride(),
        lambda: torch.empty_permuted((2, 3, 4), (0, 2, 1)).shape,
        lambda: torch.empty_permuted((2, 3), (0, 0)),
        lambda: torch.empty_permuted((2, 3), (0,)),
        lambda: torch.constant_pad_nd(x, [1, 2], 3.0),
        lambda: torch.constant_pad_nd(x, [1, 2]).grad_fn.name(),
        lambda: torch.channel_shuffle(torch.arange(8.).reshape(1, 4, 2), 2),
        lambda: torch.nonzero_static(torch.tensor([[0, 1], [2, 0]]), size=3),
        lambda: torch.nonzero_static(torch.tensor([[0, 1], [2, 0]]), size=1, fill_value=5),
        lambda: torch.nonzero_static(torch.tensor(3), size=2),
        lambda: torch.nonzero_static(torch.tensor([[0, 1], [2, 0]]), size=0).shape,
        lambda: torch.nonzero_static(torch.tensor([1, 0]), size=-1),
        lambda: torch.tensor([[0., 1.], [2., 0.]]).nonzero_static(size=2),
    ]


def _run(torch):
    out = []
    for f in _cases(torch):
        try:
            r = f()
            if isinstance(r, torch.Tensor):
                r = (str(r.dtype), np.round(r.detach().numpy(), 10).tolist())
            elif isinstance(r, tuple) and r and isinstance(r[0], torch.Tensor):
                r = [np.round(t.detach().numpy(), 10).tolist() for t in r]
        except Exception as e:  # noqa: BLE001 - the error is the result compared
            r = (type(e).__name__, str(e).split("\n")[0])
        out.append(str(r).replace("autotensor", "torch"))
    buf = bytearray(8)  # (frombuffer shares a writable buffer's memory)
    t = torch.frombuffer(buf, dtype=torch.int32)
    t[0] = 7
    out.append(buf[0])
    return out


def test_namespace_stop24_as_torch():
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _run(autotensor), _run(torch)
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, i


_TENSOR_CASES = [
    "x.is_meta", "x.is_mps", "x.is_xpu", "x.is_quantized", "x.is_nested", "x.is_sparse_csr",
    "x.is_mkldnn", "x.is_vulkan", "x.is_ipu", "x.is_xla", "x.is_mtia", "x.is_maia",
    "x.is_pinned()", "x.is_shared()", "x.share_memory_() is x", "x.dim_order()",
    "x.t().dim_order()", "torch.ones(2, 3, 4).permute(2, 0, 1).dim_order()",
    "x.const_data_ptr() == x.data_ptr()", "x.to_dense() is x", "x.is_set_to(x)",
    "x.is_set_to(x.clone())", "x.is_set_to(x.view(3, 2))", "x.volatile", "x.grad_dtype",
    "x.sparse_dim()", "x.dense_dim()", "type(x.as_subclass(torch.nn.Parameter)).__name__",
    "x.clone().apply_(lambda v: v * 2)", "x.clone().map_(x, lambda a, b: a + b)",
    "x.clone().map2_(x, x, lambda a, b, c: a + b + c)", "x.pin_memory()",
    "y.apply_(lambda v: v)", "(y * 2).map_(x, lambda a, b: a)",
    "x.clone().map_(x.double(), lambda a, b: a)", "x.clone().map_(torch.ones(2), lambda a, b: a)",
    "x.clone().map_(torch.ones(3), lambda a, b: a + b)",
    "torch.tensor([1, 2]).apply_(lambda v: v * 2.7)",
    "x[:, 1].apply_(lambda v: -v) is not None and x.tolist()",
    "x.as_subclass(torch.nn.Parameter).data_ptr() == x.data_ptr()",
]


def _tensor_run(torch):
    x = torch.arange(6.).reshape(2, 3)
    ns = {"torch": torch, "x": x, "y": x.clone().requires_grad_()}
    out = []
    for code in _TENSOR_CASES:
        try:
            r = str(eval(code, ns))
        except Exception as e:  # noqa: BLE001 - the error is the result compared
            r = f"{type(e).__name__}: {e}"
        out.append(r.replace("autotensor", "torch"))
    return out


def test_tensor_methods_stop24_as_torch():
    """Tensor flags of the kinds autotensor has not (is_meta, is_quantized...), is_pinned,
    share_memory_, dim_order, is_set_to, as_subclass, to_dense, apply_/map_/map2_ (their
    errors), volatile, grad_dtype, sparse_dim/dense_dim."""
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _tensor_run(autotensor), _tensor_run(torch)
    for code, a, b in zip(_TENSOR_CASES, ours, theirs):
        assert a == b, code
