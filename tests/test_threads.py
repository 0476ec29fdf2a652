"""Threads: grad mode is per thread; concurrent backward on independent and shared graphs."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import autotensor

N_THREADS, N_ITERS = 8, 40


def _run_threads(target, n=N_THREADS):
    errors: list = []
    barrier = threading.Barrier(n)

    def wrap(i):
        try:
            barrier.wait()
            target(i)
        except BaseException as e:  # noqa: BLE001 -- reported below
            errors.append((i, repr(e)))

    threads = [threading.Thread(target=wrap, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert not errors, errors


@pytest.fixture(params=["autotensor", "torch"])
def lib(request):
    if request.param == "torch":
        return pytest.importorskip("torch")
    return autotensor


def test_grad_mode_is_per_thread(lib):
    seen: dict = {}
    entered = threading.Event()
    release = threading.Event()

    def in_no_grad():
        with lib.no_grad():
            entered.set()
            release.wait(10)
            seen["inner"] = lib.is_grad_enabled()

    t = threading.Thread(target=in_no_grad)
    t.start()
    assert entered.wait(10)
    # another thread is inside no_grad: this one still records graphs
    assert lib.is_grad_enabled()
    x = lib.ones(2, requires_grad=True)
    assert (x * 2).grad_fn is not None
    release.set()
    t.join()
    assert seen["inner"] is False
    # a new thread starts with grad enabled even if this one disabled it
    with lib.no_grad():
        out: dict = {}
        t = threading.Thread(target=lambda: out.setdefault("e", lib.is_grad_enabled()))
        t.start()
        t.join()
        assert out["e"] is True
        assert not lib.is_grad_enabled()
    lib.set_grad_enabled(False)
    try:
        out2: dict = {}
        t = threading.Thread(target=lambda: out2.setdefault("e", lib.is_grad_enabled()))
        t.start()
        t.join()
        assert out2["e"] is True
    finally:
        lib.set_grad_enabled(True)


def test_grad_mode_stress(lib):
    def work(i):
        for k in range(N_ITERS):
            x = lib.ones(3, requires_grad=True)
            if (i + k) % 2:
                with lib.no_grad():
                    y = x * 2
                    assert y.grad_fn is None and not lib.is_grad_enabled()
            else:
                y = x * 2
                assert y.grad_fn is not None and lib.is_grad_enabled()
    _run_threads(work)
    assert lib.is_grad_enabled()


def test_independent_graphs_backward_concurrently(lib):
    rs = np.random.RandomState(0)
    data = [rs.randn(6, 5).astype(np.float64) for _ in range(N_THREADS)]
    ws = rs.randn(5, 4)
    results: dict = {}

    def work(i):
        for k in range(N_ITERS):
            x = lib.tensor(data[i], requires_grad=True)
            w = lib.tensor(ws, requires_grad=True)
            y = ((x @ w).tanh() * (k + 1)).sum()
            y.backward()
            results[(i, k)] = (x.grad.numpy().copy(), w.grad.numpy().copy())

    _run_threads(work)
    for i in range(N_THREADS):
        for k in range(N_ITERS):
            t = np.tanh(data[i] @ ws)
            d = (1 - t * t) * (k + 1)
            gx, gw = results[(i, k)]
            np.testing.assert_allclose(gx, d @ ws.T, rtol=1e-10)
            np.testing.assert_allclose(gw, data[i].T @ d, rtol=1e-10)


def test_shared_graph_concurrent_backward_accumulates(lib):
    x = lib.tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
    y = (x * x).sum() * 2  # dy/dx = 4x
    # (no retain_grad on y: PyTorch itself races, even crashes, accumulating a non-leaf's
    # retained grad from several threads; leaf accumulation is locked in both libraries)

    def work(i):
        for _ in range(N_ITERS):
            y.backward(retain_graph=True)

    _run_threads(work)
    total = N_THREADS * N_ITERS
    np.testing.assert_allclose(x.grad.numpy(), 4 * np.array([1.0, 2.0, 3.0]) * total)


def test_shared_graph_concurrent_autograd_grad(lib):
    x = lib.tensor(np.array([0.5, -1.0]), requires_grad=True)
    y = (x.sin() * x).sum()
    expect = np.cos([0.5, -1.0]) * np.array([0.5, -1.0]) + np.sin([0.5, -1.0])
    out: list = []

    def work(i):
        for _ in range(N_ITERS):
            (g,) = lib.autograd.grad(y, x, retain_graph=True)
            out.append(g.numpy().copy())

    _run_threads(work)
    assert len(out) == N_THREADS * N_ITERS
    for g in out:
        np.testing.assert_allclose(g, expect, rtol=1e-12)
    assert x.grad is None


def test_concurrent_inplace_on_separate_tensors_keeps_versions(lib):
    def work(i):
        a = lib.zeros(4, requires_grad=True) * 1
        for _ in range(N_ITERS):
            a.add_(1.0)
        assert a._version == N_ITERS
        a.sum().backward()
    _run_threads(work)
