"""float16 / bfloat16 where PyTorch's CPU kernels refuse them, or its own low-precision
checks do: the same exception type and message (found by running every op_db sample in both
dtypes on both modules); and torch.norm's string orders (the nuclear norm through
linalg.matrix_norm, as PyTorch dispatches them)."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

CALLS = {
    "avg_pool3d": lambda T, x: T.nn.functional.avg_pool3d(x.reshape(1, 1, 2, 2, 3), 2),
    "ctc_loss": lambda T, x: T.nn.functional.ctc_loss(
        x.reshape(3, 1, 4).log_softmax(2), T.tensor([[1, 2]]), [3], [2]),
    "interpolate_aa": lambda T, x: T.nn.functional.interpolate(
        x.reshape(1, 1, 3, 4), size=(2, 2), mode="bilinear", antialias=True),
    "multi_margin_loss": lambda T, x: T.nn.functional.multi_margin_loss(
        x.reshape(3, 4), T.tensor([0, 1, 3])),
    "multilabel_margin_loss": lambda T, x: T.nn.functional.multilabel_margin_loss(
        x.reshape(3, 4), T.tensor([[0, 1, -1, 0]] * 3)),
    "pdist": lambda T, x: T.nn.functional.pdist(x.reshape(3, 4)),
    "rrelu_training": lambda T, x: T.nn.functional.rrelu(x, training=True),
    "triangular_solve": lambda T, x: T.triangular_solve(x[:9].reshape(3, 3),
                                                        x[:9].reshape(3, 3)),
    "cholesky_solve": lambda T, x: T.cholesky_solve(x[:9].reshape(3, 3), x[:9].reshape(3, 3)),
    "cholesky_inverse": lambda T, x: T.cholesky_inverse(x[:9].reshape(3, 3)),
    "logdet": lambda T, x: T.logdet(x[:9].reshape(3, 3)),
    "matrix_norm_nuc": lambda T, x: T.linalg.matrix_norm(x.reshape(3, 4), "nuc"),
    "matrix_norm_2": lambda T, x: T.linalg.matrix_norm(x.reshape(3, 4), 2),
    "norm_nuc": lambda T, x: T.norm(x.reshape(3, 4), p="nuc"),
    "matrix_rank": lambda T, x: T.linalg.matrix_rank(x.reshape(3, 4)),
    "eig": lambda T, x: T.linalg.eig(x[:9].reshape(3, 3)),
    "ldl_factor": lambda T, x: T.linalg.ldl_factor(x[:9].reshape(3, 3)),
    "stft": lambda T, x: T.stft(x, 4, window=T.ones(4, dtype=x.dtype), return_complex=True),
    "polar": lambda T, x: T.polar(x, x) if x.dtype == T.float16 else 0,
}


def _run(T, name, dtype):
    x = T.tensor(np.linspace(0.5, 2.0, 12)).to(getattr(T, dtype))
    try:
        CALLS[name](T, x)
    except (RuntimeError, NotImplementedError) as e:
        return type(e).__name__, str(e)
    return "ok"


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", sorted(CALLS))
def test_half_refusals_as_torch(name, dtype):
    assert _run(autotensor, name, dtype) == _run(torch, name, dtype)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("kwargs", [dict(p="nuc"), dict(p="fro"), dict(p="fro", dim=(0, 1)),
                                    dict(p="nuc", dim=(0, 1)), dict(p=2, dim=(0, 1)),
                                    dict(p="fro", dim=1), dict(p="nuc", dim=(1, 2)),
                                    dict(p="nuc", keepdim=True, dim=(2, 0))])
def test_norm_string_orders(kwargs):
    got = []
    for T in (autotensor, torch):
        x = T.tensor(np.random.default_rng(0).standard_normal((2, 3, 4)), requires_grad=True)
        dims = kwargs.get("dim", ())
        x3 = x if 2 in np.atleast_1d(dims) else x[0]
        try:
            r = T.norm(x3, **kwargs)
        except RuntimeError as e:
            got.append(str(e))
            continue
        r.sum().backward()
        got.append((r.detach().numpy(), x.grad.numpy()))
    if isinstance(got[1], str):
        assert got[0] == got[1]
    else:  # (the nuclear norm's gradient goes through an SVD: LAPACK's last bits)
        for a, t in zip(*got):
            np.testing.assert_allclose(a, t, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("make", [lambda x: autotensor.view_as_complex(x.reshape(2, 2)),
                                  lambda x: autotensor.complex(x, x)])
def test_complex32_is_refused_clearly(make):
    """NumPy has no complex32: refused with a message saying so, not a dtype error that
    names float16 as unsupported."""
    with pytest.raises(RuntimeError, match="complex32"):
        make(autotensor.ones(4, dtype=autotensor.float16))
