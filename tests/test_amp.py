"""torch.autocast (CPU, bfloat16/float16: the lower-precision and float32 op lists, promote
for cat/stack, the weight cast cache, nesting, the decorator, other device types disabled with
PyTorch's warning) and torch.amp.GradScaler (scale, unscale_, skipped steps on inf, backoff and
growth, state_dict), run as one program on both modules."""
import warnings

import numpy as np
import pytest

import autotensor


def _graph(t, d=4):
    if t is None or d == 0:
        return None
    return (t.name(), [_graph(n, d - 1) for n, _ in t.next_functions])


def _run(torch):
    warnings.simplefilter("ignore")
    torch.manual_seed(0)
    out = []
    x = torch.randn(2, 3, requires_grad=True)
    w = torch.randn(3, 4, requires_grad=True)
    lin = torch.nn.Linear(3, 4)
    conv = torch.nn.Conv2d(2, 3, 3)
    img = torch.randn(1, 2, 5, 5)
    with torch.autocast("cpu"):
        y = x @ w
        out.append((y.dtype, _graph(y.grad_fn), y.detach().float().numpy().tolist()))
        z = lin(x)
        out.append((z.dtype, _graph(z.grad_fn)))
        z2 = lin(x)
        out.append(z2.grad_fn.next_functions[1][0] is z.grad_fn.next_functions[1][0])
        w_cast = z.grad_fn.next_functions[2][0].next_functions[0][0]  # (the cached weight)
        out.append(z2.grad_fn.next_functions[2][0].next_functions[0][0] is w_cast)
        s = torch.softmax(y, 0)
        out.append(s.dtype)
        l = torch.nn.functional.mse_loss(y, torch.zeros(2, 4))
        out.append((l.dtype, _graph(l.grad_fn)))
        c = torch.cat([y, x.new_zeros(2, 4)])
        out.append((c.dtype, _graph(c.grad_fn)))
        c2 = torch.stack([y, y])
        out.append(c2.dtype)
        d = x.double() @ w.double()
        out.append(d.dtype)
        out.append((torch.is_autocast_enabled(), torch.is_autocast_enabled("cpu"),
                    torch.get_autocast_dtype("cpu")))
        cv = conv(img)
        out.append((cv.dtype, _graph(cv.grad_fn, 2)))
        ce = torch.nn.functional.cross_entropy(y, torch.tensor([0, 2]))
        out.append((ce.dtype, _graph(ce.grad_fn, 3)))
        mm = torch.mm(x, w)
        bm = torch.bmm(x[None], w[None])
        out.append((mm.dtype, bm.dtype))
        pr = torch.prod(y)
        out.append(pr.dtype)
        loss = (z.float() ** 2).sum()
    loss.backward()
    out.append([np.round(p.grad.numpy(), 4).tolist() for p in lin.parameters()])
    out.append(torch.is_autocast_enabled("cpu"))
    with torch.autocast("cpu", dtype=torch.float16):
        out.append((x @ w).dtype)
    with torch.autocast("cuda"):
        out.append((x @ w).dtype)
    with torch.autocast("cpu", dtype=torch.float64):
        out.append((x @ w).dtype)
    with torch.autocast("cpu", enabled=False):
        out.append((x @ w).dtype)
    @torch.autocast("cpu")
    def f(a, b):
        return a @ b
    out.append(f(x, w).dtype)
    with torch.autocast("cpu"):
        with torch.autocast("cpu", enabled=False):
            out.append((x @ w).dtype)
        out.append((x @ w).dtype)
    # GradScaler
    model = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=4.0, growth_interval=2)
    for step in range(5):
        opt.zero_grad()
        inp = torch.randn(4, 3)
        if step == 2:
            inp[0, 0] = float("inf")
        loss = model(inp).pow(2).mean()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        out.append((scaler.get_scale(), scaler._get_growth_tracker(),
                    np.round(model.weight.detach().numpy(), 6).tolist()))
    out.append(scaler.state_dict())
    out.append(torch.GradScaler("cpu").get_scale())
    out.append(torch.amp.GradScaler("cuda").is_enabled())
    try:
        s2 = torch.amp.GradScaler("cpu")
        s2.step(opt)
    except Exception as e:
        out.append((type(e).__name__, str(e)))
    return [str(o).replace("autotensor", "torch") for o in out]


def test_autocast_and_grad_scaler_as_torch():
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        ours, theirs = _run(autotensor), _run(torch)
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, i
