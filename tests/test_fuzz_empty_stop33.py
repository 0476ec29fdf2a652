"""Stop 33 (helper empty33): strides of empty tensors (a dim of size 0) as PyTorch's, for
views, layout-keeping ops and gradients, each scenario run on autotensor and PyTorch
(Note [Empty strides] in autotensor/_ops/layout.py; tests/fuzz/OPEN_FINDINGS.md, the
"Stop 33 (empty strides; helper empty33)" section)."""
import pytest

import autotensor

torch = pytest.importorskip("torch")

# (name, the base's shape, a view of the base): fresh empty tensors, and non-contiguous views
SOURCES = [(str(s), s, lambda x: x) for s in [(0,), (0, 3), (3, 0), (2, 0, 3), (0, 1, 2), (1, 0)]]
SOURCES += [
    ("(0, 4).t()", (0, 4), lambda x: x.t()),
    ("(3, 0).t()", (3, 0), lambda x: x.t()),
    ("(2, 0, 3).permute(2, 0, 1)", (2, 0, 3), lambda x: x.permute(2, 0, 1)),
    ("(4, 0, 6)[::2, :, 1::3]", (4, 0, 6), lambda x: x[::2, :, 1::3]),
    ("(3, 4)[:, 1:1]", (3, 4), lambda x: x[:, 1:1]),
    ("(3, 4)[2:2].t()", (3, 4), lambda x: x[2:2].t()),
    ("(1, 0, 3).expand(2, 0, 3)", (1, 0, 3), lambda x: x.expand(2, 0, 3)),
    ("(0, 1, 2).transpose(0, 2)", (0, 1, 2), lambda x: x.transpose(0, 2)),
]


def _m(x):
    return autotensor if isinstance(x, autotensor.Tensor) else torch


def _copy_into_empty_like(x):
    return _m(x).empty_like(x).copy_(x)


OPS = [
    ("alias", lambda x: x),
    ("transpose", lambda x: x.transpose(0, -1)),
    ("permute", lambda x: x.permute(*range(x.dim() - 1, -1, -1))),
    ("slice step", lambda x: x[..., ::2]),
    ("slice step dim 0", lambda x: x[::2]),
    ("unsqueeze(0)", lambda x: x.unsqueeze(0)),
    ("unsqueeze(1)", lambda x: x.unsqueeze(1)),
    ("unsqueeze(-1)", lambda x: x.unsqueeze(-1)),
    ("x[None]", lambda x: x[None]),
    ("select", lambda x: x.select(-1, 0)),
    ("expand", lambda x: x.unsqueeze(0).expand(2, *x.shape)),
    ("as_strided", lambda x: x.as_strided(x.shape, [2] * x.dim())),
    ("narrow", lambda x: x.narrow(0, 0, 0)),
    ("diagonal", lambda x: x.diagonal(0, 0, -1)),
    ("movedim", lambda x: x.movedim(0, -1)),
    ("unfold", lambda x: x.unfold(-1, 1, 1)),
    ("view(-1)", lambda x: x.view(-1)),
    ("reshape", lambda x: x.reshape(x.shape[::-1])),
    ("view with a 1", lambda x: x.view(*x.shape, 1)),
    ("flatten", lambda x: x.flatten()),
    ("squeeze", lambda x: x.squeeze()),
    ("split", lambda x: x.split(1, -1)[0] if x.shape[-1] else x.split(1, 0)[0]),
    ("unbind", lambda x: x.unbind(-1)[0] if x.shape[-1] else x.unbind(0)),
    ("chunk", lambda x: x.chunk(2, -1)[-1]),
    ("clone", lambda x: x.clone()),
    ("contiguous", lambda x: x.contiguous()),
    ("empty_like", lambda x: _m(x).empty_like(x)),
    ("zeros_like", lambda x: _m(x).zeros_like(x)),
    ("neg", lambda x: -x),
    ("exp", lambda x: x.exp()),
    ("x + x", lambda x: x + x),
    ("x + 1", lambda x: x + 1),
    ("x * 2.5", lambda x: x * 2.5),
    ("broadcast mul", lambda x: x * _m(x).ones(x.shape[-1:])),
    ("mixed dtypes", lambda x: x + _m(x).ones(x.shape[-1:], dtype=_m(x).float64)),
    ("to(float64)", lambda x: x.to(_m(x).float64)),
    ("half", lambda x: x.half()),
    ("copy_", _copy_into_empty_like),
    ("where", lambda x: _m(x).where(x > 0, x, x)),
    ("sum(-1)", lambda x: x.sum(-1)),
    ("clone().abs_()", lambda x: x.clone().abs_()),
    ("roll", lambda x: x.roll(1, 0)),
    ("view_as_real", lambda x: _m(x).view_as_real(x.to(_m(x).complex64))),
    ("real of complex", lambda x: x.to(_m(x).complex128).real),
    ("t_() of a clone", lambda x: x.clone().t_() if x.dim() <= 2 else x.clone()),
    ("transpose_ of a clone", lambda x: x.clone().transpose_(0, -1)),
    ("unsqueeze_ of a clone", lambda x: x.clone().unsqueeze_(0)),
]


def _layout(y):
    """What is compared of a result: shape, dtype, strides, offset, contiguity, and those
    of its contiguous()."""
    if isinstance(y, tuple):
        return tuple(_layout(t) for t in y)
    c = y.contiguous()
    return (tuple(y.shape), str(y.dtype), y.stride(), y.storage_offset(), y.is_contiguous(),
            c.stride(), c.is_contiguous(), c is y, y.tolist())


def _forward(m, shape, view, op, name):
    try:
        return _layout(op(view(m.zeros(shape))))
    except Exception as e:  # (both libraries refusing is agreement)
        return type(e).__name__


# ops whose backward lays out the gradient reaching their input otherwise than PyTorch's for
# non-empty tensors too (where's: TensorIterator's output after the condition's strides)
_GRAD_LAYOUT_OPEN = {"where"}
# PyTorch's backward refuses the expanded gradient of an empty one (view_as_complex: "Tensor
# must have a last dimension with stride 1"); ours computes it
_NO_BACKWARD = {"view_as_real"}


def _backward(m, shape, view, op, name):
    """The strides of the gradients: the leaf's .grad (and its version: stolen or copied)
    and the gradient reaching the view (a hook), after backward of the op's sum."""
    if name in _NO_BACKWARD:
        return None
    leaf = m.zeros(shape, dtype=m.float64, requires_grad=True)
    seen = []
    try:
        v = view(leaf)
        if v is not leaf and name not in _GRAD_LAYOUT_OPEN:
            v.register_hook(lambda g: seen.append((tuple(g.shape), g.stride())))
        y = op(v)
        if isinstance(y, tuple):
            y = y[0] if y else leaf
        if not y.requires_grad:
            return "no grad"
        y.sum().backward()
    except Exception as e:
        return type(e).__name__
    return (leaf.grad.stride(), tuple(leaf.grad.shape), leaf.grad._version, seen)


def differences(kind, verbose=False):
    probe = _forward if kind == "forward" else _backward
    out = []
    for sname, shape, view in SOURCES:
        for oname, op in OPS:
            a = probe(autotensor, shape, view, op, oname)
            b = probe(torch, shape, view, op, oname)
            if a != b:
                out.append((sname, oname, a, b))
                if verbose:
                    print(kind, sname, oname, "\n  ours ", a, "\n  torch", b)
    return out


def test_empty_strides_of_views_and_layout_keeping_ops():
    """Views of empty tensors compute their strides from the source's (NumPy 2 zeroes a
    fresh empty array's), clone/empty_like/to keep them (an empty tensor is dense), and
    TensorIterator's slow path (a scalar or broadcast operand) orders dims by them: 213 of
    574 cases differed, stride-only."""
    assert differences("forward") == []


def test_empty_strides_of_gradients():
    """The gradients' strides (the leaf's .grad and those reaching a view) of the same ops,
    backward of their sum."""
    assert differences("backward") == []


def test_contiguous_of_empty_views():
    """An empty tensor is contiguous whatever its strides: contiguous() returns it, and
    contiguous(channels_last) of a 4-d one too."""
    def scenario(m):
        out = []
        for x in (m.zeros(0, 4).t(), m.zeros(2, 0, 3, 5).permute(0, 3, 1, 2),
                  m.zeros(3, 4)[:, 1:1], m.zeros(1, 0, 3).expand(2, 0, 3)):
            for fmt in (None, m.channels_last):
                try:
                    c = x.contiguous() if fmt is None else x.contiguous(memory_format=fmt)
                    out.append((x.is_contiguous() if fmt is None else
                                x.is_contiguous(memory_format=fmt), c is x, c.stride()))
                except RuntimeError as e:
                    out.append(str(e))
        return out
    assert scenario(autotensor) == scenario(torch)


def test_numpy_and_detach_of_empty_views():
    """numpy() of an empty tensor has NumPy 2's zero strides (as PyTorch's array), and
    detach() keeps an empty view's storage offset."""
    def scenario(m):
        out = []
        for _, shape, view in SOURCES:
            x = view(m.zeros(shape))
            out.append((x.numpy().strides, x.detach().storage_offset(), x.detach().stride()))
        return out
    assert scenario(autotensor) == scenario(torch)


if __name__ == "__main__":
    import sys
    kinds = [a for a in sys.argv[1:] if a != "-q"] or ("forward", "backward")
    for kind in kinds:
        print(kind, len(differences(kind, verbose="-q" not in sys.argv)))
