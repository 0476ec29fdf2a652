"""Workloads 1-5, 7 and 8 of issue 4 (targets of issue 14), each written once for autotensor
and torch (the same PyTorch-style code, parameterised by the module ``T``) and once as
hand-written NumPy forward+backward (the floor for anything built on NumPy).

Every factory builds fresh state from the same NumPy data (copied: no engine shares a
buffer with another) and returns ``(step, grads)`` (see ``harness.Bench``). A builder takes
``size`` whose ``modules`` maps engine names to modules; a factory touches its module only
when called, so the parent builds the benches with placeholder modules to learn their
cases, and each worker builds them again with its one real module.
"""
import random

import numpy as np

from .harness import COMPILED, Bench

F32 = np.float32
# Workloads with a "compiled" engine: autotensor with the step's computation wrapped in
# autotensor.compile (the optimizer step and zero_grad stay eager, as with torch.compile).
COMPILED_WORKLOADS = (1, 2, 3)


def _data(seed, *shape, scale=1.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(F32)


def _t(T, a, requires_grad=False):
    t = T.from_numpy(np.array(a, copy=True))
    return t.requires_grad_() if requires_grad else t


def _grads_of(*tensors):
    return lambda: [None if t.grad is None else t.grad.numpy().copy() for t in tensors]


# --------------------------------------------------------------------------------------
# 1. op overhead: a chain of elementwise ops on a 16-element float32 tensor
# --------------------------------------------------------------------------------------
# One cycle is 8 ops: sin, * w, + b, tanh, exp, cos, * 0.9, + 0.1 (values stay bounded).

def _chain_T(T, x, w, b, cycles):
    y = x
    for _ in range(cycles):
        y = y.sin()
        y = y * w
        y = y + b
        y = T.tanh(y)
        y = T.exp(y)
        y = y.cos()
        y = y * 0.9
        y = y + 0.1
    return y


def _chain_np_fwd(x, w, b, cycles):
    y = x
    for _ in range(cycles):
        y = np.sin(y)
        y = y * w
        y = y + b
        y = np.tanh(y)
        y = np.exp(y)
        y = np.cos(y)
        y = y * 0.9
        y = y + 0.1
    return y


def _chain_np_fwd_bwd(x, w, b, cycles):
    saved = []
    y = x
    for _ in range(cycles):
        s0 = y
        y = np.sin(y)
        s1 = y
        y = y * w
        y = y + b
        y = np.tanh(y)
        s3 = y
        y = np.exp(y)
        s4 = y
        y = np.cos(y)
        y = y * 0.9
        y = y + 0.1
        saved.append((s0, s1, s3, s4))
    g = np.ones_like(y)  # d y.sum() / dy
    gw = np.zeros_like(w)
    gb = np.zeros_like(b)
    for s0, s1, s3, s4 in reversed(saved):
        g = g * 0.9
        g = g * -np.sin(s4)
        g = g * s4
        g = g * (1 - s3 * s3)
        gb += g
        gw += g * s1
        g = g * w
        g = g * np.cos(s0)
    return y.sum(), [g, gw, gb]


def w1_op_overhead(size):
    n_ops = size["chain_ops"]
    cycles = n_ops // 8
    n_ops = cycles * 8
    x0, w0, b0 = _data(1, 16), _data(2, 16, scale=0.5), _data(3, 16, scale=0.5)

    def torch_like(T, mode, compiled=False):
        def factory():
            x, w, b = (_t(T, a, True) for a in (x0, w0, b0))

            def chain(x, w, b):
                return _chain_T(T, x, w, b, cycles)
            if compiled:
                chain = T.compile(chain)
            if mode == "fwd+bwd":
                def step():
                    x.grad = w.grad = b.grad = None
                    chain(x, w, b).sum().backward()
                return step, _grads_of(x, w, b)
            if mode == "fwd":
                return (lambda: chain(x, w, b)), None

            def step_no_grad():
                with T.no_grad():
                    chain(x, w, b)
            return step_no_grad, None
        return factory

    def numpy_floor(mode):
        def factory():
            x, w, b = (np.array(a, copy=True) for a in (x0, w0, b0))
            if mode == "fwd+bwd":
                box = []

                def step():
                    box[:] = [_chain_np_fwd_bwd(x, w, b, cycles)[1]]
                return step, lambda: box[0]
            return (lambda: _chain_np_fwd(x, w, b, cycles)), None
        return factory

    targets = {"fwd+bwd": ("torch", 0.6), "fwd": None, "fwd under no_grad": ("numpy", 2.0)}
    benches = []
    for mode, label in (("fwd+bwd", "fwd+bwd"), ("fwd", "fwd"),
                        ("no_grad", "fwd under no_grad")):
        facs = {e: torch_like(T, mode, e == COMPILED) for e, T in size["modules"].items()}
        facs["numpy"] = numpy_floor(mode)
        benches.append(Bench(1, f"{n_ops}-op elementwise chain, 16 x float32, {label}",
                             facs, per=n_ops, target=targets[label],
                             compiled_target=("torch", 0.3) if mode == "fwd+bwd" else None))
    return benches


# --------------------------------------------------------------------------------------
# 2, 3. MLP training steps
# --------------------------------------------------------------------------------------

def _mlp_params(sizes, seed):
    """PyTorch-shaped (out, in) weights and biases, Kaiming-uniform-like bounds."""
    rng = np.random.default_rng(seed)
    ps = []
    for i, o in zip(sizes[:-1], sizes[1:], strict=True):
        bound = 1 / np.sqrt(i)
        ps.append(rng.uniform(-bound, bound, (o, i)).astype(F32))
        ps.append(rng.uniform(-bound, bound, (o,)).astype(F32))
    return ps


def _mlp_T(T, sizes, params):
    nn = T.nn
    layers = []
    for k, (i, o) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
        layers.append(nn.Linear(i, o))
        if k < len(sizes) - 2:
            layers.append(nn.ReLU())
    model = nn.Sequential(*layers)
    with T.no_grad():
        for p, a in zip(model.parameters(), params, strict=True):
            p.copy_(T.from_numpy(a))
    return model


def _train_factory_T(T, sizes, params, x0, y0, loss_name, lr, compiled=False):
    def factory():
        F = T.nn.functional
        model = _mlp_T(T, sizes, params)
        opt = T.optim.SGD(model.parameters(), lr=lr)
        x, y = _t(T, x0), _t(T, y0)
        loss_fn = F.cross_entropy if loss_name == "ce" else F.mse_loss
        grads = []

        def forward(x, y):
            return loss_fn(model(x), y)
        if compiled:
            forward = T.compile(forward)

        def step():
            opt.zero_grad()
            loss = forward(x, y)
            loss.backward()
            if not grads:  # the first step's gradients, for the check
                grads[:] = [p.grad.numpy().copy() for p in model.parameters()]
            opt.step()

        def reset():
            with T.no_grad():
                for p, a in zip(model.parameters(), params, strict=True):
                    p.copy_(T.from_numpy(a))
        return step, lambda: grads, reset
    return factory


def _np_mlp_fwd_bwd(params, x, y, loss_name):
    """Forward, loss and backward of Linear/ReLU layers; returns (loss, grads)."""
    n_layers = len(params) // 2
    hs = [x]
    h = x
    for k in range(n_layers):
        W, b = params[2 * k], params[2 * k + 1]
        h = h @ W.T + b
        if k < n_layers - 1:
            h = np.maximum(h, 0)
        hs.append(h)
    if loss_name == "ce":
        m = h.max(axis=1, keepdims=True)
        e = np.exp(h - m)
        s = e.sum(axis=1, keepdims=True)
        n = h.shape[0]
        rows = np.arange(n)
        loss = float(np.mean(np.log(s[:, 0]) + m[:, 0] - h[rows, y]))
        g = e / s
        g[rows, y] -= 1
        g /= n
    else:
        d = h - y
        loss = float(np.mean(d * d))
        g = d * (2.0 / d.size)
    grads = [None] * len(params)
    for k in reversed(range(n_layers)):
        W = params[2 * k]
        h_in = hs[k]
        grads[2 * k] = g.T @ h_in
        grads[2 * k + 1] = g.sum(axis=0)
        if k > 0:
            g = g @ W
            g *= h_in > 0
    return loss, grads


def _train_factory_np(sizes, params, x0, y0, loss_name, lr):
    def factory():
        ps = [np.array(a, copy=True) for a in params]
        x, y = np.array(x0, copy=True), np.array(y0, copy=True)
        first = []

        def step():
            _, grads = _np_mlp_fwd_bwd(ps, x, y, loss_name)
            if not first:
                first[:] = [g.copy() for g in grads]
            for p, g in zip(ps, grads, strict=True):
                p -= lr * g

        def reset():
            for p, a in zip(ps, params, strict=True):
                p[...] = a
        return step, lambda: first, reset
    return factory


def _mlp_bench(workload, title, sizes, batch, loss_name, modules, target, tol=1e-4,
               compiled_target=None):
    params = _mlp_params(sizes, seed=10 + workload)
    x0 = _data(20 + workload, batch, sizes[0])
    if loss_name == "ce":
        y0 = np.random.default_rng(30 + workload).integers(0, sizes[-1], batch).astype(np.int64)
    else:
        y0 = _data(30 + workload, batch, sizes[-1])
    facs = {e: _train_factory_T(T, sizes, params, x0, y0, loss_name, 0.01, e == COMPILED)
            for e, T in modules.items()}
    facs["numpy"] = _train_factory_np(sizes, params, x0, y0, loss_name, 0.01)
    return Bench(workload, title, facs, target=target, tol=tol,
                 compiled_target=compiled_target)


def w2_small_mlp(size):
    s = size["mlp2"]
    sizes, batch = s[:-1], s[-1]
    return [_mlp_bench(2, f"MLP {'-'.join(map(str, sizes))}, batch {batch}, MSE loss, "
                       "fwd+bwd+SGD step", sizes, batch, "mse", size["modules"],
                       ("torch", 1.0), compiled_target=("torch", 0.5))]


def w3_mnist_mlp(size):
    s = size["mlp3"]
    sizes, batch = s[:-1], s[-1]
    return [_mlp_bench(3, f"MLP {'-'.join(map(str, sizes))}, batch {batch}, cross-entropy, "
                       "fwd+bwd+SGD step", sizes, batch, "ce", size["modules"],
                       ("numpy", 1.05), tol=2e-4, compiled_target=("numpy", 1.02))]


# --------------------------------------------------------------------------------------
# 4. matmul chain: 4 x (n x n matmul + tanh), against the raw GEMMs
# --------------------------------------------------------------------------------------

def w4_matmul_chain(size):
    n, layers = size["matmul_n"], 4
    x0 = _data(40, n, n)
    ws0 = [_data(41 + i, n, n, scale=1 / np.sqrt(n)) for i in range(layers)]

    def torch_like(T):
        def factory():
            x = _t(T, x0)
            ws = [_t(T, w, True) for w in ws0]

            def step():
                for w in ws:
                    w.grad = None
                h = x
                for w in ws:
                    h = T.tanh(h @ w)
                h.sum().backward()
            return step, _grads_of(*ws)
        return factory

    def numpy_floor():
        x = np.array(x0, copy=True)
        ws = [np.array(w, copy=True) for w in ws0]
        box = []

        def step():
            hs = [x]
            h = x
            for w in ws:
                h = np.tanh(h @ w)
                hs.append(h)
            g = np.ones_like(h)
            grads = [None] * layers
            for i in reversed(range(layers)):
                t = hs[i + 1]
                g = g * (1 - t * t)
                grads[i] = hs[i].T @ g
                if i > 0:
                    g = g @ ws[i].T
            box[:] = [grads]
        return step, lambda: box[0]

    def gemm():
        # the same 11 GEMMs: 4 forward, 4 weight gradients, 3 input gradients
        a, b = np.array(x0, copy=True), np.array(ws0[0], copy=True)

        def step():
            for _ in range(layers):
                a @ b
            for _ in range(layers):
                a.T @ b
            for _ in range(layers - 1):
                a @ b.T
        return step, None

    facs = {e: torch_like(T) for e, T in size["modules"].items()}
    facs["numpy"] = numpy_floor
    facs["gemm"] = gemm
    return [Bench(4, f"4 x ({n}x{n} matmul + tanh), fwd+bwd; gemm = the 11 raw GEMMs alone",
                  facs, tol=1e-3, target=("gemm", 1.05), min_sample=0.0)]


# --------------------------------------------------------------------------------------
# 5. deep graph: n sequential tiny ops, then backward
# --------------------------------------------------------------------------------------
# Alternating y * 0.99999 and y + 0.00001 on 16 float32: bounded values, and the gradient
# (0.99999 ** (n/2)) neither explodes nor underflows even at a million ops.

def w5_deep_graph(size):
    benches = []
    x0 = _data(50, 16)
    for n in size["deep_ops"]:
        half = n // 2

        def torch_like(T, half=half):
            def factory():
                x = _t(T, x0, True)

                def step():
                    x.grad = None
                    y = x
                    for _ in range(half):
                        y = y * 0.99999
                        y = y + 0.00001
                    y.sum().backward()
                return step, _grads_of(x)
            return factory

        def numpy_floor(half=half):
            x = np.array(x0, copy=True)
            box = []

            def step():
                y = x
                for _ in range(half):
                    y = y * 0.99999
                    y = y + 0.00001
                g = np.ones_like(y)
                for _ in range(half):
                    g = g * 0.99999  # (+ passes the gradient through)
                box[:] = [g]
            return step, lambda: box
        facs = {e: torch_like(T) for e, T in size["modules"].items()}
        facs["numpy"] = numpy_floor
        benches.append(Bench(5, f"deep graph: {2 * half:,} sequential ops on 16 x float32, "
                                "then backward", facs, per=2 * half, tol=1e-3,
                             target=("torch", 0.7), min_sample=0.0 if n > 100_000 else 0.1))
    return benches


# --------------------------------------------------------------------------------------
# 7. scalar graph: a micrograd-style graph of 0-d tensors
# --------------------------------------------------------------------------------------
# A random DAG over 16 scalar leaves; each instruction reads recent nodes and is one of
# tanh(a + b) (2 ops), a * b (1 op), a * 0.5 + 0.1 (2 ops): all values stay in [-1, 1].

def _scalar_program(n_ops, n_leaves, seed=70):
    rng = random.Random(seed)
    prog, ops, n_nodes = [], 0, n_leaves
    while ops < n_ops:
        kind = rng.randrange(3) if n_ops - ops >= 2 else 1
        lo = max(0, n_nodes - 8)
        a, b = rng.randrange(lo, n_nodes), rng.randrange(lo, n_nodes)
        prog.append((kind, a, b))
        ops += 1 if kind == 1 else 2
        n_nodes += 1
    return prog, ops


def _scalar_T(T, leaves, prog):
    nodes = list(leaves)
    for kind, a, b in prog:
        if kind == 0:
            v = (nodes[a] + nodes[b]).tanh()
        elif kind == 1:
            v = nodes[a] * nodes[b]
        else:
            v = nodes[a] * 0.5 + 0.1
        nodes.append(v)
    return nodes[-1]


def _scalar_np(leaves, prog):
    vals = list(leaves)
    saved = []
    for kind, a, b in prog:
        if kind == 0:
            v = np.tanh(vals[a] + vals[b])
        elif kind == 1:
            v = vals[a] * vals[b]
        else:
            v = vals[a] * F32(0.5) + F32(0.1)
        saved.append(v)
        vals.append(v)
    grads = [F32(0)] * len(vals)
    grads[-1] = F32(1)
    base = len(leaves)
    for i in reversed(range(len(prog))):
        g = grads[base + i]
        kind, a, b = prog[i]
        if kind == 0:
            t = saved[i]
            gs = g * (1 - t * t)
            grads[a] = grads[a] + gs
            grads[b] = grads[b] + gs
        elif kind == 1:
            grads[a] = grads[a] + g * vals[b]
            grads[b] = grads[b] + g * vals[a]
        else:
            grads[a] = grads[a] + g * F32(0.5)
    return grads[:base]


def w7_scalar_graph(size):
    n_leaves = 16
    prog, n_ops = _scalar_program(size["scalar_ops"], n_leaves)
    leaves0 = np.random.default_rng(71).uniform(-1, 1, n_leaves).astype(F32)

    def torch_like(T):
        def factory():
            leaves = [T.tensor(float(v), requires_grad=True) for v in leaves0]

            def step():
                for t in leaves:
                    t.grad = None
                _scalar_T(T, leaves, prog).backward()
            return step, lambda: [np.float32(0) if t.grad is None else t.grad.numpy().copy()
                                  for t in leaves]
        return factory

    def numpy_floor():
        leaves = [F32(v) for v in leaves0]
        box = []

        def step():
            box[:] = [_scalar_np(leaves, prog)]
        return step, lambda: box[0]

    facs = {e: torch_like(T) for e, T in size["modules"].items()}
    facs["numpy"] = numpy_floor
    return [Bench(7, f"micrograd-style scalar graph: {n_ops:,} ops on 0-d float32 tensors, "
                     "fwd+bwd", facs, per=n_ops, target=("torch", 0.8))]


# --------------------------------------------------------------------------------------
# 8. conv net: one training step of the digits CNN (autotensor.examples.digits' model)
# --------------------------------------------------------------------------------------
# Conv2d-BatchNorm-ReLU-MaxPool twice, Dropout, Linear on a batch of 8x8 images, cross
# entropy, Adam. The model is written out here (the same layers as digits.build_model) so
# that the torch worker never imports autotensor. Both engines draw the same weights from
# manual_seed(0) and, reseeded before every step, the same dropout mask.

def _digits_model(T):
    nn = T.nn
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(0.25), nn.Linear(32 * 2 * 2, 10))


def w8_digits_cnn(size):
    n = size["digits"]
    rng = np.random.RandomState(80)
    x0 = (rng.rand(n, 1, 8, 8) * 16).astype(F32)
    y0 = rng.randint(0, 10, n).astype(np.int64)

    def torch_like(T):
        def factory():
            T.manual_seed(0)
            model = _digits_model(T)
            state0 = {k: v.detach().numpy().copy() for k, v in model.state_dict().items()}
            opt = T.optim.Adam(model.parameters(), lr=0.01)
            x, y = _t(T, x0), T.from_numpy(y0.copy())
            grads = []

            def step():
                T.manual_seed(1)
                loss = T.nn.functional.cross_entropy(model(x), y)
                opt.zero_grad(set_to_none=True)
                loss.backward()
                if not grads:
                    grads[:] = [p.grad.numpy().copy() for p in model.parameters()]
                opt.step()

            def reset():
                with T.no_grad():
                    for k, v in model.state_dict().items():
                        v.copy_(T.from_numpy(state0[k].copy()))
            return step, lambda: grads, reset
        return factory

    return [Bench(8, f"digits CNN training step: conv 1->16->32 (3x3) + batch_norm + relu + "
                     f"max_pool, dropout, linear, Adam; batch {n} x 8x8",
                  {e: torch_like(T) for e, T in size["modules"].items()}, tol=1e-3,
                  target=("torch", 1.5))]


BUILDERS = {1: w1_op_overhead, 2: w2_small_mlp, 3: w3_mnist_mlp, 4: w4_matmul_chain,
            5: w5_deep_graph, 7: w7_scalar_graph, 8: w8_digits_cnn}


# --------------------------------------------------------------------------------------
# 9-11. the op catalogue's rows (issue 11): convolutions, a transformer block, einsum
# --------------------------------------------------------------------------------------
# Each is the same PyTorch-style code on both engines; the parameters' gradients are
# compared. Einsum also has a NumPy floor: np.einsum(optimize=True) forward and backward.

def _params(T, arrays):
    return [_t(T, a, True) for a in arrays]


# The "gemm" rows: the raw GEMMs of autotensor's step alone (its shapes and layouts, random
# data, nothing else), the floor that NumPy's OpenBLAS sets: a step's time over it is
# everything that is not GEMM (im2col, col2im, norms, activations, the Python around
# them). A stride-1 convolution's columns span L = (Ho-1)*Wp + Wo per image of padded
# width Wp (Note [Stride-1 convolution over flattened rows] in autotensor/_ops/nn_ops.py).
def _gemm_chunked(a, b, inner=False):
    """a @ b, in chunks of b's columns (``inner``: of the summed dimension, the weight
    gradient's) where autotensor's convolution chunks it."""
    small = 1_000_000 // (a.shape[0] * (b.shape[1] if inner else a.shape[1]))
    if small < 1024:
        return a @ b
    if inner:
        return sum(a[:, i:i + small] @ b[i:i + small] for i in range(0, b.shape[0], small))
    return [a @ b[:, i:i + small] for i in range(0, b.shape[1], small)]


def _conv_gemm_operands(n, cin, cout, k, hp, wp, seed):
    """Weights (Cout, Cin*K), columns (Cin*K, N*L) and a wide gradient (Cout, N*L) of a
    stride-1 convolution of N images padded to hp x wp."""
    span = (hp - k) * wp + wp - k + 1
    return (_data(seed, cout, cin * k * k), _data(seed + 1, cin * k * k, n * span),
            _data(seed + 2, cout, n * span))


def w9_conv(size):
    benches = []
    n, hw = size["lenet"]

    def lenet(T):
        def factory():
            F = T.nn.functional
            x = _t(T, _data(90, n, 1, hw, hw))
            w1, b1, w2, b2 = _params(T, [_data(91, 6, 1, 5, 5, scale=0.2), _data(92, 6),
                                         _data(93, 16, 6, 5, 5, scale=0.1), _data(94, 16)])

            def step():
                for p in (w1, b1, w2, b2):
                    p.grad = None
                y = F.max_pool2d(F.relu(F.conv2d(x, w1, b1)), 2)
                y = F.max_pool2d(F.relu(F.conv2d(y, w2, b2)), 2)
                y.sum().backward()
            return step, _grads_of(w1, b1, w2, b2)
        return factory

    def lenet_gemms():
        # conv1 forward and weight gradient (6 rows: chunked), conv2 forward and weight
        # gradient, conv2's input gradient: one (K*Cin, Cout) @ (Cout, S) GEMM per image
        # (the transposed convolution's column-add path for 6 output channels)
        p1 = (hw - 4) // 2
        w1, c1, g1 = _conv_gemm_operands(n, 1, 6, 5, hw, hw, 98)
        w2, c2, g2 = _conv_gemm_operands(n, 6, 16, 5, p1, p1, 88)
        wk, gi = _data(85, 25 * 6, 16), _data(86, n, 16, (p1 - 4) ** 2)

        def step():
            _gemm_chunked(w1, c1)
            _gemm_chunked(g1, c1.T, inner=True)
            w2 @ c2
            g2 @ c2.T
            np.matmul(wk, gi)
        return step, None

    facs = {e: lenet(T) for e, T in size["modules"].items()}
    facs["gemm"] = lenet_gemms
    benches.append(Bench(9, f"LeNet convolutions: conv 1->6->16 (5x5) + relu + max_pool, "
                            f"batch {n} x {hw}x{hw}, fwd+bwd; gemm = its raw GEMMs alone",
                         facs, tol=1e-3, target=("torch", 1.5)))
    rn, c, rhw = size["resblock"]  # (names of their own: the closures above read n, hw)

    def resblock(T):
        def factory():
            F = T.nn.functional
            x = _t(T, _data(95, rn, c, rhw, rhw))
            w1, w2 = _params(T, [_data(96, c, c, 3, 3, scale=0.05),
                                 _data(97, c, c, 3, 3, scale=0.05)])
            g1, b1, g2, b2 = _params(T, [np.ones(c, F32), np.zeros(c, F32), np.ones(c, F32),
                                         np.zeros(c, F32)])

            def step():
                for p in (w1, w2, g1, b1, g2, b2):
                    p.grad = None
                y = F.relu(F.batch_norm(F.conv2d(x, w1, padding=1), None, None, g1, b1,
                                        training=True))
                y = F.batch_norm(F.conv2d(y, w2, padding=1), None, None, g2, b2, training=True)
                F.relu(y + x).sum().backward()
            return step, _grads_of(w1, w2, g1, b1, g2, b2)
        return factory

    def resblock_gemms():
        # two forwards, the second convolution's input gradient (a forward with the
        # flipped kernel: the same shapes) and two weight gradients
        w, cols, g = _conv_gemm_operands(rn, c, c, 3, rhw + 2, rhw + 2, 80)

        def step():
            for _ in range(3):
                w @ cols
            for _ in range(2):
                g @ cols.T
        return step, None

    facs = {e: resblock(T) for e, T in size["modules"].items()}
    facs["gemm"] = resblock_gemms
    benches.append(Bench(9, f"ResNet basic block: 2 x (conv 3x3 {c}->{c} + batch_norm) + "
                            f"identity + relu, batch {rn} x {rhw}x{rhw}, fwd+bwd; gemm = its "
                            f"raw GEMMs alone", facs, tol=1e-2, target=("torch", 1.5)))
    return benches


def w10_transformer(size):
    b, s, d, heads = size["transformer"]

    def block(T):
        def factory():
            F = T.nn.functional
            x = _t(T, _data(100, b, s, d))
            wqkv, wo, w1, w2 = _params(T, [_data(101, 3 * d, d, scale=d ** -0.5),
                                           _data(102, d, d, scale=d ** -0.5),
                                           _data(103, 4 * d, d, scale=d ** -0.5),
                                           _data(104, d, 4 * d, scale=(4 * d) ** -0.5)])
            ln1, ln2 = _params(T, [np.ones(d, F32), np.ones(d, F32)])
            params = (wqkv, wo, w1, w2, ln1, ln2)

            def step():
                for p in params:
                    p.grad = None
                h = F.layer_norm(x, (d,), ln1)
                q, k, v = F.linear(h, wqkv).chunk(3, -1)
                q, k, v = (t.reshape(b, s, heads, d // heads).transpose(1, 2) for t in (q, k, v))
                att = (q @ k.transpose(-2, -1) * (d // heads) ** -0.5).softmax(-1)
                o = (att @ v).transpose(1, 2).reshape(b, s, d)
                y = x + F.linear(o, wo)
                y = y + F.linear(F.gelu(F.linear(F.layer_norm(y, (d,), ln2), w1)), w2)
                y.sum().backward()
            return step, _grads_of(*params)
        return factory

    def gemms():
        # the four linears forward, their input and weight gradients (the block's input
        # x needs none, but the layer norm before the first linear does), and the
        # attention's two batched products forward and four backward
        rows, dh = b * s, d // heads
        xs, h4, g3 = _data(105, rows, d), _data(106, rows, 4 * d), _data(107, rows, 3 * d)
        ws = [_data(101 + i, *shape) for i, shape in enumerate(
            ((3 * d, d), (d, d), (4 * d, d), (d, 4 * d)))]
        q, att = _data(108, b, heads, s, dh), _data(109, b, heads, s, s)

        def step():
            wqkv, wo, w1, w2 = ws
            xs @ wqkv.T, xs @ wo.T, xs @ w1.T, h4 @ w2.T
            g3 @ wqkv, g3.T @ xs, xs @ wo, xs.T @ xs, h4 @ w1, h4.T @ xs, xs @ w2, xs.T @ h4
            q @ q.swapaxes(-1, -2), att @ q
            att @ q, att.swapaxes(-1, -2) @ q, q @ q.swapaxes(-1, -2), att.swapaxes(-1, -2) @ q
        return step, None

    facs = {e: block(T) for e, T in size["modules"].items()}
    facs["gemm"] = gemms
    return [Bench(10, f"transformer block: layer_norm + {heads}-head attention + MLP "
                      f"(batch {b}, seq {s}, dim {d}), fwd+bwd; gemm = its raw GEMMs alone",
                  facs, tol=1e-2, target=("torch", 1.5))]


def w11_einsum(size):
    b, n = size["einsum"]
    x0, a0, y0 = _data(110, b, n), _data(111, n, n, scale=n ** -0.5), _data(112, b, n)

    def torch_like(T):
        def factory():
            x, a, y = _params(T, [x0, a0, y0])

            def step():
                for p in (x, a, y):
                    p.grad = None
                T.einsum("bi,ij,bj->b", x, a, y).sum().backward()
            return step, _grads_of(x, a, y)
        return factory

    def numpy_floor():
        box = []

        def step():  # forward and the three gradients, each one optimized einsum
            np.einsum("bi,ij,bj->b", x0, a0, y0, optimize=True)
            g = np.ones(b, F32)
            box[:] = [np.einsum("b,ij,bj->bi", g, a0, y0, optimize=True),
                      np.einsum("b,bi,bj->ij", g, x0, y0, optimize=True),
                      np.einsum("b,bi,ij->bj", g, x0, a0, optimize=True)]
        return step, lambda: box

    facs = {e: torch_like(T) for e, T in size["modules"].items()}
    facs["numpy"] = numpy_floor
    return [Bench(11, f"einsum bilinear form 'bi,ij,bj->b' (b={b}, n={n}), fwd+bwd", facs,
                  tol=1e-3, target=("numpy", 1.1))]


BUILDERS.update({9: w9_conv, 10: w10_transformer, 11: w11_einsum})
