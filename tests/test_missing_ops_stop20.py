"""Ops that were missing (issue 8's list): frexp, sum_to_size, fill_diagonal_, is_neg /
resolve_neg and the conjugate / negative bits of views, against PyTorch 2.13."""
import numpy as np
import pytest

import autotensor as at

torch = pytest.importorskip("torch")


def _run(lib, fn):
    try:
        return ("ok", fn(lib))
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


def _plain(v):
    """Values, dtypes, graph node names of a result (tensors, tuples, numbers)."""
    if isinstance(v, (tuple, list)):
        return tuple(_plain(x) for x in v)
    if hasattr(v, "grad_fn"):
        fn = v.grad_fn
        data = v.detach()
        if str(v.dtype).endswith("bfloat16"):
            data = data.float()
        return (str(v.dtype).replace("autotensor.", "torch."), tuple(v.shape),
                data.numpy().tobytes(), v.requires_grad,
                None if fn is None else type(fn).__name__, v._version)
    return v


def same(fn):
    a, b = _run(at, fn), _run(torch, fn)
    assert a[0] == b[0], (a, b)
    if a[0] == "ok":
        assert _plain(a[1]) == _plain(b[1])
    else:
        assert a[1] == b[1]


SPECIAL = [0.0, -0.0, 1.0, 3.5, -10.0, float("inf"), float("-inf"), float("nan"), 1e-310,
           2.0 ** 100, 0.75, -0.5, 5e-324, 1.7976931348623157e308]


@pytest.mark.parametrize("dt", ["float64", "float32", "float16", "bfloat16"])
def test_frexp_values(dt):
    vals = SPECIAL + list(np.random.default_rng(0).standard_normal(50) * 100)
    same(lambda m: tuple(m.frexp(m.tensor(vals, dtype=getattr(m, dt)))))
    same(lambda m: m.tensor(vals, dtype=getattr(m, dt)).frexp().exponent)


@pytest.mark.parametrize("case", [
    lambda m: m.frexp(m.tensor([1, 2])),
    lambda m: m.frexp(m.tensor([1j])),
    lambda m: m.frexp(m.tensor(True)),
    lambda m: m.frexp(m.tensor([1.5, 3.0]), out=(m.empty(2, dtype=m.float64),
                                                 m.empty(2, dtype=m.int32))),
    lambda m: m.frexp(m.tensor([1.5, 3.0]), out=(m.empty(2), m.empty(2, dtype=m.int64))),
    lambda m: m.frexp(m.tensor([1.5, 3.0]), out=m.empty(2)),
    lambda m: m.frexp(m.tensor([1.0], requires_grad=True),
                      out=(m.empty(1), m.empty(1, dtype=m.int32))),
    lambda m: tuple(m.frexp(m.tensor([1.5, 3.0]), out=(m.empty(0), m.empty(0, dtype=m.int32)))),
])
def test_frexp_errors_and_out(case):
    same(case)


def test_frexp_gradients_and_graph():
    def f(m):
        x = m.tensor([1.5, -3.0, 0.1], dtype=m.float64, requires_grad=True)
        mant, e = m.frexp(x)
        v = m.tensor([1.0, 2.0, 3.0], dtype=m.float64, requires_grad=True)
        g, = m.autograd.grad(mant, x, v, create_graph=True)
        gv, = m.autograd.grad(g.sum(), v)
        nodes = [type(n).__name__ if n is not None else None
                 for n, _ in g.grad_fn.next_functions[0][0].next_functions]
        return mant, e, g, gv, type(mant.grad_fn).__name__, str(e.requires_grad), tuple(nodes)
    same(f)


def test_frexp_forward_ad():
    def f(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(m.tensor([1.5, 3.0, -0.2], dtype=m.float64),
                             m.tensor([1.0, 1.0, 2.0], dtype=m.float64))
            mant, e = m.frexp(x)
            return fw.unpack_dual(mant).tangent, str(fw.unpack_dual(e).tangent)
    same(f)


@pytest.mark.parametrize("size", [(3, 1), (1, 3, 1), (2, 3, 4), (1,), (), (4,), (1, 1, 1),
                                  (5,), (2, 3, 4, 1), (3, 4), (2, 1, 4)])
def test_sum_to_size(size):
    def f(m):
        x = m.arange(24.0, dtype=m.float64).reshape(2, 3, 4).requires_grad_()
        y = x.sum_to_size(*size) if size else x.sum_to_size(size)
        nxt = y.grad_fn.next_functions if y.grad_fn is not None else ()
        y.sum().backward()
        return y, x.grad, y is x, tuple(type(n).__name__ for n, _ in nxt)
    same(f)
    same(lambda m: m.ones(2, 3).sum_to_size(m.Size([1, 3])))
    same(lambda m: m.ones(2, 3).sum_to_size([2, 1]))


@pytest.mark.parametrize("case", [
    lambda m: m.zeros(7, 3).fill_diagonal_(1, wrap=True),
    lambda m: m.zeros(7, 3).fill_diagonal_(1),
    lambda m: m.zeros(3, 7).fill_diagonal_(2.5, wrap=True),
    lambda m: m.zeros(8, 3).t().fill_diagonal_(1, wrap=True),
    lambda m: m.zeros(2, 2, 2).fill_diagonal_(1),
    lambda m: m.zeros(2, 3, 2).fill_diagonal_(1),
    lambda m: m.zeros(3).fill_diagonal_(1),
    lambda m: m.zeros(3, 3, dtype=m.int32).fill_diagonal_(2.7),
    lambda m: m.zeros(3, 3, dtype=m.bool).fill_diagonal_(2),
    lambda m: m.zeros(3, 3, dtype=m.uint8).fill_diagonal_(-1),
    lambda m: m.zeros(3, 3).fill_diagonal_(m.tensor(2.0)),
    lambda m: m.zeros(0, 0).fill_diagonal_(1),
    lambda m: m.zeros(6, 4)[1:, 1:].fill_diagonal_(1, wrap=True),
    lambda m: m.ones(3, 3, requires_grad=True).fill_diagonal_(0),
])
def test_fill_diagonal_(case):
    same(case)


def test_fill_diagonal_graph():
    def f(m):
        x = m.arange(21.0, dtype=m.float64).reshape(7, 3).requires_grad_()
        y = x * 1
        y.fill_diagonal_(5.0, wrap=True)
        (y * y).sum().backward()
        return y, x.grad, type(y.grad_fn.next_functions[0][0]).__name__
    same(f)


def test_neg_and_conj_bits():
    def f(m):
        x = m.tensor([1 + 2j, 3 - 1j], requires_grad=True)
        v = x.conj().imag
        r = v.resolve_neg()
        w = m._neg_view(x)
        c = x.conj()
        y = m.ones(2)
        return (v.is_neg(), r.is_neg(), type(r.grad_fn).__name__, w.is_neg(),
                type(w.grad_fn).__name__, v.clone().is_neg(), (v * 1).is_neg(),
                v.neg().is_neg(), v[0].is_neg(), v.view(2).is_neg(), v.detach().is_neg(),
                y.resolve_neg() is y, m.is_neg(y), x.conj().real.is_neg(),
                x.conj().imag.conj().is_neg(), c[0].is_conj(), c.view(2).is_conj(),
                c.detach().is_conj(), (c * 1).is_conj(), c.clone().is_conj(), r)
    same(f)
    same(lambda m: m.view_as_real(m.tensor([1 + 2j, 3 - 1j]).conj()[0:1]))
