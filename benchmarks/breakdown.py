"""``python -m benchmarks.breakdown``: where the microseconds of one elementwise op go.

A chain of 200 ``sin`` on 16 float32, CPU time per op (medians): NumPy alone, autotensor
under no_grad, recording, and one backward node (with the NumPy arithmetic of its formula
for comparison); then the cProfile shares of a forward+backward (profiler overhead
included, so read them as proportions). RESULTS.md quotes it under "Where the time goes".
``--w2``: workload 2's compiled step taken apart; ``--step W:I``: a workload's step, its
page faults and its backward nodes (PROFILE.md, workloads 9-11).
"""
import cProfile
import pstats
import time

import numpy as np

N = 200


def _median_us(f, n=20, k=15):
    runs = []
    for _ in range(k):
        c = time.process_time()
        for _ in range(n):
            f()
        runs.append((time.process_time() - c) / n / N * 1e6)
    return sorted(runs)[k // 2]


def main():
    import autotensor as T
    a = np.random.default_rng(0).standard_normal(16).astype(np.float32)
    x = T.from_numpy(a.copy()).requires_grad_()

    def np_fwd():
        y = a
        for _ in range(N):
            y = np.sin(y)

    def np_formula():  # the backward's arithmetic: g * cos(s)
        g = a
        for _ in range(N):
            g = g * np.cos(a)

    def no_grad():
        with T.no_grad():
            y = x
            for _ in range(N):
                y = y.sin()

    def fwd():
        y = x
        for _ in range(N):
            y = y.sin()
        return y

    def fwd_bwd():
        x.grad = None
        fwd().sum().backward()

    r = {name: _median_us(f) for name, f in (("numpy", np_fwd), ("formula", np_formula),
                                              ("no_grad", no_grad), ("fwd", fwd),
                                              ("fwd_bwd", fwd_bwd))}
    print(f"us per op: NumPy sin {r['numpy']:.2f} | autotensor no_grad {r['no_grad']:.2f} | "
          f"forward recording {r['fwd']:.2f} | forward+backward {r['fwd_bwd']:.2f}")
    node = r["fwd_bwd"] - r["fwd"]
    print(f"  wrap+dispatch {r['no_grad'] - r['numpy']:.2f}; recording "
          f"{r['fwd'] - r['no_grad']:.2f}; backward node {node:.2f}, of which NumPy "
          f"arithmetic {r['formula']:.2f} and engine+apply {node - r['formula']:.2f}")
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    for _ in range(30):
        fwd_bwd()
    prof.disable()
    st = pstats.Stats(prof)
    rows = sorted(((v[2], k) for k, v in st.stats.items()), reverse=True)[:12]
    print("  cProfile shares of forward+backward (tottime):")
    for t, (fn, line, name) in rows:
        print(f"    {t / st.total_tt * 100:5.1f}%  {fn.split('autotensor/')[-1]}:{line}({name})")
    mul_breakdown()


def _best_us(f, n=2000, k=9):
    """Best of k runs of n calls, CPU microseconds per call (best: the least disturbed)."""
    runs = []
    for _ in range(k):
        c = time.process_time()
        for _ in range(n):
            f()
        runs.append((time.process_time() - c) / n * 1e6)
    return min(runs)


def mul_breakdown():
    """One ``x * w`` of two 16-float32 tensors that require grad, and its backward node,
    taken apart: each piece timed alone (best of 9 runs, CPU time)."""
    import autotensor as T
    from autotensor._ops import pointwise
    from autotensor._tensor import Tensor, _make
    from autotensor.autograd import engine
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(16).astype(np.float32) for _ in range(2))
    x, w = T.from_numpy(a.copy()).requires_grad_(), T.from_numpy(b.copy()).requires_grad_()
    mul = pointwise.mul.method  # what x * w calls
    raw, _ = engine._namespaces()
    new = object.__new__
    y = x * w
    node = y.grad_fn
    rec = pointwise.MUL.recorders[3]
    g = np.ones(16, np.float32)
    out = a * b

    with T.no_grad():
        nograd = _best_us(lambda: mul(x, w))
    r = {
        "NumPy a * b": _best_us(lambda: np.multiply(a, b)),
        "x * w under no_grad (dispatch + kernel + wrap)": nograd,
        "  _make(array): the Tensor wrap": _best_us(lambda: _make(out)),
        "    object.__new__(Tensor) alone": _best_us(lambda: new(Tensor)),
        "    [0]: the version counter list": _best_us(lambda: [0]),
        "x * w recording (dispatch + kernel + node + tensor)": _best_us(lambda: x * w),
        "  the generated recorder alone (node, edges, saved, tensor)":
            _best_us(lambda: rec((x, w), (), out)),
        "MulBackward0.apply (version checks + formulas)": _best_us(lambda: node.apply([g], raw)),
        "  its NumPy arithmetic: g * b, g * a": _best_us(lambda: (g * b, g * a)),
    }
    print("\n  one x * w (16 float32, both require grad) and its backward node, us per call:")
    for k, v in r.items():
        print(f"    {v:6.3f}  {k}")
    return r


def compiled_step_parts(steps=2000):
    """Workload 2's compiled step taken apart (benchmarks/PROFILE.md): the parts of a step,
    the replayed programs alone and the NumPy floor in the same process, 25th percentile
    CPU microseconds, and how many times the function was traced (1: no recompiling)."""
    import gc
    import autotensor as T
    from autotensor import _compile
    from .run import FULL
    from .workloads import _mlp_params, _mlp_T, _np_mlp_fwd_bwd
    sizes = FULL["mlp2"]
    params = _mlp_params(sizes[:4], 0)
    model = _mlp_T(T, sizes[:4], params)
    opt = T.optim.SGD(model.parameters(), lr=0.01)
    rng = np.random.default_rng(0)
    x = T.from_numpy(rng.standard_normal((32, 64)).astype(np.float32))
    y = T.from_numpy(rng.standard_normal((32, 10)).astype(np.float32))
    cf = T.compile(lambda x, y: T.nn.functional.mse_loss(model(x), y))
    for _ in range(5):
        opt.zero_grad()
        cf(x, y).backward()
        opt.step()
    parts = {"zero_grad": [], "forward region": [], "backward()": [], "opt.step": []}
    pc = time.process_time
    gc.disable()
    for _ in range(steps):
        c0 = pc()
        opt.zero_grad()
        c1 = pc()
        loss = cf(x, y)
        c2 = pc()
        loss.backward()
        c3 = pc()
        opt.step()
        c4 = pc()
        for k, d in zip(parts, (c1 - c0, c2 - c1, c3 - c2, c4 - c3)):
            parts[k].append(d)
    comp = [c for c in _compile._all if c._count]
    entry = next(iter(comp[0]._cache.values()))[0]
    prog = entry.prog
    ps = [p.detach().numpy() for p in model.parameters()]

    def q25(f, n=steps):
        ts = []
        for _ in range(n):
            c0 = pc()
            f()
            ts.append(pc() - c0)
        return sorted(ts)[n // 4] * 1e6
    fwd_args = []
    orig = prog.forward

    def grab(*a):
        fwd_args[:] = a
        return orig(*a)
    prog.forward = grab
    loss = cf(x, y)
    prog.forward = orig
    saved = orig(*fwd_args)[1]
    bwd = prog.backward_for((True,))
    g = [np.ones((), np.float32)]
    r = {k: sorted(v)[len(v) // 4] * 1e6 for k, v in parts.items()}
    r["  forward program alone"] = q25(lambda: orig(*fwd_args))
    r["  backward program alone"] = q25(lambda: bwd(g, saved))
    r["NumPy floor forward+backward"] = q25(lambda: _np_mlp_fwd_bwd(ps, x._data, y._data,
                                                                       "mse"))
    gc.enable()
    print(f"workload 2 compiled, traced {comp[0]._count} time(s) in {steps + 6} calls; "
          "us (25th percentile, CPU):")
    for k, v in r.items():
        print(f"    {v:7.1f}  {k}")
    return r


def step_parts(spec, steps=20):
    """``--step W:I``: autotensor's step of case I of workload W (full size) taken apart:
    page faults and system time per step (Note [Heap for big temporaries]; run it with
    AUTOTENSOR_MALLOC=default for glibc's defaults), the backward's share, and the
    time of each backward node kind (its formulas' kernels) per step. One BLAS thread, as
    the benchmark's --threads 1 (more threads' spinning inflates the CPU time ~3 x)."""
    import collections
    import resource

    from . import harness, run, workloads
    harness.apply_threads(1)

    import autotensor
    from autotensor.autograd import graph
    w, i = (int(v) for v in spec.split(":"))
    size = dict(run.FULL, modules={"autotensor": autotensor})
    step, _ = workloads.BUILDERS[w](size)[i].factories["autotensor"]()
    step()
    per_node = collections.defaultdict(float)
    clock = time.process_time
    todo = [graph.Node]
    while todo:  # time every node class's apply (generated classes included)
        cls = todo.pop()
        todo += cls.__subclasses__()
        if "apply" in vars(cls):
            def timed(self, grads, F, _apply=cls.apply):
                t = clock()
                out = _apply(self, grads, F)
                per_node[self.name()] += clock() - t
                return out
            cls.apply = timed
    back = [0.0]
    plain_backward = autotensor.Tensor.backward

    def backward(self, *a, **k):
        t = clock()
        plain_backward(self, *a, **k)
        back[0] += clock() - t
    autotensor.Tensor.backward = backward
    try:
        step()
        per_node.clear()
        back[0] = 0.0
        r0, t0 = resource.getrusage(resource.RUSAGE_SELF), clock()
        for _ in range(steps):
            step()
        r1, t1 = resource.getrusage(resource.RUSAGE_SELF), clock()
    finally:
        autotensor.Tensor.backward = plain_backward
    ms = 1e3 / steps
    print(f"workload {spec} ({steps} steps, CPU ms per step): step {(t1 - t0) * ms:.2f}, "
          f"of which backward() {back[0] * ms:.2f}; page faults per step "
          f"{(r1.ru_minflt - r0.ru_minflt) / steps:.0f}, system time "
          f"{(r1.ru_stime - r0.ru_stime) * ms:.2f}")
    for name, t in sorted(per_node.items(), key=lambda kv: -kv[1]):
        print(f"    {t * ms:8.3f}  {name}")


if __name__ == "__main__":
    import sys
    if "--w2" in sys.argv:
        compiled_step_parts()
    elif "--step" in sys.argv:
        step_parts(sys.argv[sys.argv.index("--step") + 1])
    else:
        main()
