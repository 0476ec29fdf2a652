"""torch.histogram / torch.histogramdd (edges, counts, weights, density, checks, their
NotImplemented nodes) and torch.gradient (its seven overloads, edge orders, checks, values,
gradients and graphs as aten's composite records them), against PyTorch."""
import numpy as np
import pytest

import autotensor


def _graph(t, depth=4):
    if t is None or depth == 0:
        return None
    return (t.name(), [_graph(n, depth - 1) for n, _ in t.next_functions])


def _hist_cases(torch):
    x = torch.tensor([0., 0.5, 1., 1.5, 2., 2.5, 3.])
    big = torch.tensor(np.random.default_rng(0).normal(size=1000).astype(np.float32))
    f64 = torch.float64
    return {
        "bins": lambda: torch.histogram(x, 3),
        "edges": lambda: torch.histogram(x, torch.tensor([0., 1., 2.5, 3.])),
        "range_weight_density": lambda: torch.histogram(x, 4, range=(0., 2.),
                                                        weight=torch.ones(7) * 2, density=True),
        "int_input": lambda: torch.histogram(torch.tensor([1, 2]), 2),
        "edge_dtype": lambda: torch.histogram(torch.tensor([1., 2.]),
                                              torch.tensor([0., 1.], dtype=f64)),
        "zero_bins": lambda: torch.histogram(torch.tensor([1., 2.]), 0),
        "infinite": lambda: torch.histogram(torch.tensor([1., float("inf")]), 2),
        "bad_range": lambda: torch.histogram(torch.tensor([1., 2.]), 2, range=(3., 1.)),
        "bad_weight": lambda: torch.histogram(torch.tensor([1., 2.]), 2, weight=torch.ones(3)),
        "dd_1d": lambda: torch.histogramdd(torch.tensor([1., 2.]), 2),
        "dd_bins_count": lambda: torch.histogramdd(torch.rand(3, 2), [2]),
        "empty": lambda: torch.histogram(torch.tensor([]), 3),
        "constant": lambda: torch.histogram(torch.tensor([2., 2.]), 2),
        "decreasing_edges": lambda: torch.histogram(torch.tensor([1., 2.]),
                                                    torch.tensor([2., 1.])),
        "2d_weight": lambda: torch.histogram(torch.tensor([[1., 2.], [3., 4.]]), 2,
                                             weight=torch.tensor([[1., 2.], [3., 4.]])),
        "dd_range_length": lambda: torch.histogramdd(torch.rand(3, 2), 2, range=[0., 1.]),
        "half": lambda: torch.histogram(torch.ones(2, dtype=torch.float16), 2),
        "normal_17": lambda: torch.histogram(big, 17),
        "normal_density_f64": lambda: torch.histogram(big.double(), 17, density=True),
        "normal_weighted": lambda: torch.histogram(big, 10, range=(-1., 1.5), weight=big.abs()),
        "dd_5x7": lambda: torch.histogramdd(big.reshape(-1, 2), [5, 7]),
        "dd_density_f64": lambda: torch.histogramdd(big.double().reshape(-1, 4), 3,
                                                    density=True),
        "dd_edges": lambda: torch.histogramdd(big.reshape(-1, 2), [torch.tensor([-1., 0., 2.]),
                                                                   torch.tensor([-3., 3.])]),
        "dd_range_weight": lambda: torch.histogramdd(big.reshape(-1, 2), [3, 4],
                                                     range=[-1., 1., 0., 2.],
                                                     weight=big[:500]),
        "method": lambda: big.histogram(5),
        "node": lambda: torch.histogram(x.clone().requires_grad_(), 3).hist.grad_fn.name(),
        "backward": lambda: torch.histogram(x.clone().requires_grad_(), 3).hist.sum()
        .backward(),
        "dd_edges_backward": lambda: torch.histogramdd(x.reshape(-1, 1).requires_grad_(), [3])
        .bin_edges[0].sum().backward(),
    }


def _summary(torch, r):
    if isinstance(r, tuple):
        parts = []
        for t in r:
            ts = t if isinstance(t, tuple) else (t,)
            parts.append([(str(u.dtype), u.detach().numpy().astype(np.float64)) for u in ts])
        return type(r).__name__, parts
    return str(r)


def _run(torch, cases):
    out = {}
    for name, f in cases(torch).items():
        try:
            out[name] = _summary(torch, f())
        except Exception as e:  # noqa: BLE001 - the error is the result compared
            out[name] = f"{type(e).__name__}: {e}"
    return out


def _compare(ours, theirs):
    if isinstance(theirs, str):
        assert ours == theirs
        return
    assert ours[0] == theirs[0]
    for a_list, b_list in zip(ours[1], theirs[1]):
        assert len(a_list) == len(b_list)
        for (da, a), (db, b) in zip(a_list, b_list):
            assert da == db and a.shape == b.shape
            # (float32 bin edges: torch.linspace's float32 arithmetic, an ulp apart; float32
            # weighted sums in another order)
            tol = 1e-12 if "float64" in da else 2e-6
            np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


@pytest.fixture(scope="module")
def hist_results():
    torch = pytest.importorskip("torch")
    return _run(autotensor, _hist_cases), _run(torch, _hist_cases)


@pytest.mark.parametrize("name", sorted(_hist_cases(autotensor)))
def test_histogram_as_torch(hist_results, name):
    ours, theirs = hist_results
    _compare(ours[name], theirs[name])


def _grad_cases(torch):
    f64 = torch.float64
    x = torch.tensor([[1., 2., 4., 8., 10.], [0., 1., 3., 2., 7.], [5., 5., 1., 0., -2.]],
                     dtype=f64, requires_grad=True)
    xi = torch.tensor([[1, 2, 4, 8], [10, 3, 2, 1]])
    c = torch.tensor([0., 1., 1.5, 3.5, 4.], dtype=f64)
    c0 = torch.tensor([0., 2., 3.], dtype=f64)

    def backward():
        y = x.detach().requires_grad_()
        torch.gradient(y, dim=1, edge_order=2)[0].pow(2).sum().backward()
        return (y.grad,)

    return {
        "default": lambda: torch.gradient(x), "dim": lambda: torch.gradient(x, dim=1),
        "spacing": lambda: torch.gradient(x, spacing=2.0),
        "int_spacing_dim": lambda: torch.gradient(x, spacing=2, dim=0),
        "dim_list": lambda: torch.gradient(x, dim=[1, 0]),
        "spacing_list": lambda: torch.gradient(x, spacing=[2.0, 0.5]),
        "spacing_list_dims": lambda: torch.gradient(x, spacing=[0.5], dim=[1]),
        "coordinates": lambda: torch.gradient(x, spacing=(c0, c)),
        "coordinates_dim": lambda: torch.gradient(x, spacing=[c], dim=1),
        "coordinates_edge2": lambda: torch.gradient(x, spacing=[c], dim=1, edge_order=2),
        "edge2": lambda: torch.gradient(x, edge_order=2),
        "edge2_spacing": lambda: torch.gradient(x, spacing=3.0, dim=1, edge_order=2),
        "int_input": lambda: torch.gradient(xi), "int_input_spacing": lambda: torch.gradient(
            xi, spacing=2),
        "edge3": lambda: torch.gradient(x, edge_order=3),
        "too_short": lambda: torch.gradient(torch.ones(1, 5)),
        "uint8": lambda: torch.gradient(torch.ones(3, dtype=torch.uint8)),
        "spacing_length": lambda: torch.gradient(x, spacing=[1.0]),
        "spacing_dim_length": lambda: torch.gradient(x, spacing=[1.0, 2.0], dim=1),
        "repeated_dim": lambda: torch.gradient(x, dim=[1, 1]),
        "dim_range": lambda: torch.gradient(x, dim=2),
        "coordinates_2d": lambda: torch.gradient(x, spacing=[torch.ones(2, 2)], dim=0),
        "0d": lambda: torch.gradient(torch.tensor(1.5)),
        "0d_dim": lambda: torch.gradient(torch.tensor(1.5), dim=-1),
        "0d_spacing_dim": lambda: torch.gradient(torch.tensor(1.5), spacing=2.0, dim=0),
        "0d_dim_range": lambda: torch.gradient(torch.tensor(1.5), dim=2),
        "backward": backward,
        "graph": lambda: str(_graph(torch.gradient(x, dim=1)[0].grad_fn)),
        "graph_coordinates": lambda: str(_graph(torch.gradient(x, spacing=[c], dim=1)[0]
                                                .grad_fn)),
        "graph_edge2": lambda: str(_graph(torch.gradient(x, dim=0, edge_order=2)[0].grad_fn)),
    }


@pytest.fixture(scope="module")
def grad_results():
    torch = pytest.importorskip("torch")
    return _run(autotensor, _grad_cases), _run(torch, _grad_cases)


@pytest.mark.parametrize("name", sorted(_grad_cases(autotensor)))
def test_gradient_as_torch(grad_results, name):
    ours, theirs = grad_results
    _compare(ours[name], theirs[name])


def test_gradient_by_finite_differences():
    """torch.gradient is linear in its input: its backward is its transpose."""
    torch = autotensor
    x = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
    c = torch.tensor([0., 0.5, 2., 2.5, 4.], dtype=torch.float64)
    assert torch.autograd.gradcheck(
        lambda t: torch.gradient(t, spacing=[c], dim=1, edge_order=2)[0], (x,))
