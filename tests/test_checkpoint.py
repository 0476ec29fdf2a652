"""utils.checkpoint vs PyTorch and vs no checkpointing: both variants, RNG restore
(dropout), autograd.grad, retain_graph, nesting, kwargs, warnings and errors."""
import warnings

import numpy as np
import pytest

import autotensor
from differential import catch, compare

W = [np.random.RandomState(i).randn(4, 4) * 0.7 for i in range(4)]
X = np.random.RandomState(9).randn(3, 4)


def _params(torch):
    return [torch.tensor(w, requires_grad=True) for w in W]


def _block(torch):
    def block(x, w, scale=1.0):
        return torch.tanh(x @ w) * scale + x.sin()
    return block


def _cp(torch):
    import importlib
    return importlib.import_module(torch.__name__ + ".utils.checkpoint")


@pytest.mark.parametrize("reentrant", [True, False])
def test_same_gradients_as_without_checkpointing(reentrant):
    def scenario(torch):
        cp = _cp(torch)
        ws = _params(torch)
        x = torch.tensor(X, requires_grad=True)
        y = x
        for w in ws:
            y = cp.checkpoint(_block(torch), y, w, use_reentrant=reentrant)
        y.sum().backward()
        return y, y.grad_fn.name() if reentrant else y.grad_fn, x.grad, [w.grad for w in ws]

    compare(scenario)


def test_non_reentrant_with_autograd_grad_kwargs_retain_graph_and_nesting():
    def scenario(torch):
        cp = _cp(torch)
        ws = _params(torch)
        x = torch.tensor(X, requires_grad=True)
        block = _block(torch)

        def two(y, w0, w1):
            y = cp.checkpoint(block, y, w0, use_reentrant=False, scale=2.0)  # nested
            return block(y, w1)

        y = cp.checkpoint(two, x, ws[0], ws[1], use_reentrant=False)
        y = cp.checkpoint(block, y, ws[2], use_reentrant=False, scale=0.5)
        loss = (y ** 2).sum()
        g1 = torch.autograd.grad(loss, [x, ws[0]], retain_graph=True)
        g2 = torch.autograd.grad(loss, [ws[2]], retain_graph=True)
        loss.backward()
        return g1, g2, x.grad, [w.grad for w in ws]

    compare(scenario)


def test_reentrant_refuses_autograd_grad_and_inputs():
    def scenario(torch):
        cp = _cp(torch)
        ws = _params(torch)
        x = torch.tensor(X, requires_grad=True)
        y = cp.checkpoint(_block(torch), x, ws[0], use_reentrant=True).sum()
        return catch(torch.autograd.grad, y, x, retain_graph=True), \
            catch(y.backward, inputs=[x])

    compare(scenario)


def test_warnings_and_argument_errors():
    def scenario(torch):
        cp = _cp(torch)
        ws = _params(torch)
        x = torch.tensor(X)
        block = _block(torch)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = cp.checkpoint(block, x, ws[0])
            cp.checkpoint(block, x.detach(), torch.tensor(W[0]), use_reentrant=True)
            cp.checkpoint_sequential([torch.sin, torch.cos], 2, x)
        msgs = [str(m.message) for m in w]
        return (msgs, out, catch(cp.checkpoint, block, x, ws[0], use_reentrant=True,
                                 scale=2.0),
                catch(cp.checkpoint, block, x, ws[0], use_reentrant=True, debug=True),
                catch(cp.checkpoint, block, x, ws[0], use_reentrant=False,
                      determinism_check="bogus"),
                catch(cp.checkpoint_sequential, [torch.sin], 1, x, use_reentrant=True,
                      foo=1))

    compare(scenario)


def test_recomputation_mismatch_errors():
    def scenario(torch):
        cp = _cp(torch)
        x = torch.tensor(X, requires_grad=True)
        calls = []

        def changing(x):
            calls.append(1)
            if len(calls) == 1:
                return x.sin().exp()
            return x.sin()

        def reshaping(x):
            calls.append(1)
            return x.exp() if len(calls) % 2 else x.reshape(4, 3).exp()

        y = cp.checkpoint(changing, x, use_reentrant=False)
        e1 = catch(y.sum().backward)
        calls.clear()
        z = cp.checkpoint(reshaping, x, use_reentrant=False)
        e2 = catch(z.sum().backward)
        calls.clear()
        z = cp.checkpoint(reshaping, x, use_reentrant=False, determinism_check="none")
        e3 = catch(z.sum().backward)
        return e1, e2, type(e3).__name__

    compare(scenario)


@pytest.mark.parametrize("reentrant", [True, False])
def test_rng_state_restored_so_dropout_recomputes_identically(reentrant):
    torch = autotensor
    cp = _cp(torch)
    nnf = torch.nn.functional

    def block(x, w):
        return nnf.dropout(torch.tanh(x @ w), 0.5, True)

    def run(use_checkpoint, preserve=True):
        ws = _params(torch)
        x = torch.tensor(X, requires_grad=True)
        torch.manual_seed(7)
        y = x
        for w in ws:
            y = cp.checkpoint(block, y, w, use_reentrant=reentrant,
                              preserve_rng_state=preserve) if use_checkpoint else block(y, w)
        y.sum().backward()
        return y.detach(), x.grad, [w.grad for w in ws]

    y0, gx0, gw0 = run(False)
    y1, gx1, gw1 = run(True)
    assert np.array_equal(y0.numpy(), y1.numpy())
    assert np.array_equal(gx0.numpy(), gx1.numpy())
    assert all(np.array_equal(a.numpy(), b.numpy()) for a, b in zip(gw0, gw1))
    _, gx2, _ = run(True, preserve=False)  # recomputed with other masks: other gradients
    assert not np.array_equal(gx0.numpy(), gx2.numpy())


def test_checkpoint_sequential_matches_plain_and_torch():
    def scenario(torch):
        cp = _cp(torch)
        torch.manual_seed(0)
        layers = []
        for i in range(8):
            lin = torch.nn.Linear(4, 4)
            with torch.no_grad():
                lin.weight.copy_(torch.tensor(W[i % 4], dtype=torch.float32))
                lin.bias.fill_(0.1 * i)
            layers += [lin, torch.nn.Tanh()]
        model = torch.nn.Sequential(*layers)
        x = torch.tensor(X, dtype=torch.float32, requires_grad=True)
        out = {}
        for reentrant in (True, False):
            model.zero_grad()
            y = cp.checkpoint_sequential(model, 4, x, use_reentrant=reentrant)
            y.sum().backward()
            out[reentrant] = (y, [p.grad.clone() for p in model.parameters()])
        model.zero_grad()
        y = model(x)
        y.sum().backward()
        out["plain"] = (y, [p.grad.clone() for p in model.parameters()])
        return out

    compare(scenario)


def test_inputs_not_requiring_grad():
    def scenario(torch):
        cp = _cp(torch)
        ws = _params(torch)
        x = torch.tensor(X)
        r = []
        for reentrant in (True, False):
            y = cp.checkpoint(_block(torch), x, ws[0], use_reentrant=reentrant)
            y.sum().backward()
            r.append(ws[0].grad.clone())
            ws[0].grad = None
        with torch.no_grad():
            r.append(cp.checkpoint(_block(torch), x, ws[0], use_reentrant=False))
        return r

    compare(scenario)
