"""Workload 6: extra peak memory of a training step (workload 3) and of a deep MLP's backward.

Each (engine, case) runs in a fresh subprocess (``python -m benchmarks.memory ENGINE CASE
SIZES_JSON``) so that no engine sees another's heap. Two measures:

- tracemalloc: the peak of the bytes allocated during the measured part, above what was
  allocated when it began. It sees NumPy's buffers (NumPy reports them to tracemalloc), so it
  is exact for autotensor and the NumPy floor; torch's tensors are allocated in C++ and are
  invisible to it, so it is not reported for torch.
- peak RSS: VmHWM from /proc/self/status after resetting it (``echo 5 >
  /proc/self/clear_refs``), minus VmRSS before the measured part, for every engine. The
  subprocess runs with MALLOC_MMAP_THRESHOLD_=65536 so that glibc serves large buffers
  with mmap and returns them to the OS when freed; RSS then follows the live buffers.

"after" is the change once the measured part has finished: for the deep backward it is
negative when the saved activations are freed as the backward proceeds (gradients of the
weights stay, so it is the weights' size minus what was freed).
"""
import gc
import json
import os
import re
import subprocess
import sys
import tracemalloc

import numpy as np

MB = 1024 * 1024


def _status_kb(field):
    with open("/proc/self/status") as f:
        m = re.search(rf"^{field}:\s+(\d+) kB", f.read(), re.M)
    return int(m.group(1)) if m else None


def _reset_hwm():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


# ----------------------------------------------------------------------------- cases
# A case returns (prep, run): prep() brings the state to just before the measured part,
# run() is the measured part. Both may be called more than once.

def _train_case(engine, size):
    from . import workloads as W
    s = size["mlp3"]
    sizes, batch = s[:-1], s[-1]
    params = W._mlp_params(sizes, seed=13)
    x0 = W._data(23, batch, sizes[0])
    y0 = np.random.default_rng(33).integers(0, sizes[-1], batch).astype(np.int64)
    if engine == "numpy":
        ps = [p.copy() for p in params]
        state = {}

        def prep():
            state.clear()

        def run():
            _, grads = W._np_mlp_fwd_bwd(ps, x0, y0, "ce")
            for p, g in zip(ps, grads, strict=True):
                p -= 0.01 * g
            state["grads"] = grads  # live until the next step, like .grad
        run()
        return prep, run
    T = _module(engine)
    F = T.nn.functional
    model = W._mlp_T(T, sizes, params)
    opt = T.optim.SGD(model.parameters(), lr=0.01)
    x, y = T.from_numpy(x0.copy()), T.from_numpy(y0.copy())

    def prep():
        opt.zero_grad()

    def run():
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    run()  # warm-up step
    return prep, run


def _deep_case(engine, size):
    layers, width, batch = size["deep_mlp"]
    rng = np.random.default_rng(60)
    ws0 = [(rng.uniform(-1, 1, (width, width)) / np.sqrt(width)).astype(np.float32)
           for _ in range(layers)]
    bs0 = [np.zeros(width, np.float32) for _ in range(layers)]
    x0 = rng.standard_normal((batch, width)).astype(np.float32)
    state = {}
    if engine == "numpy":
        def prep():
            state.clear()
            hs, h = [], x0
            for w, b in zip(ws0, bs0, strict=True):
                hs.append(h)
                h = np.maximum(h @ w.T + b, 0)
            hs.append(h)
            state["hs"] = hs

        def run():
            hs = state["hs"]
            h = hs.pop()
            g = np.ones_like(h)
            grads = []
            for w in reversed(ws0):
                g = g * (h > 0)
                h = hs.pop()  # the saved activation is dropped as the backward proceeds
                grads.append((g.T @ h, g.sum(axis=0)))
                g = g @ w
            state["grads"] = grads
        prep()
        run()
        return prep, run
    T = _module(engine)
    F = T.nn.functional
    ws = [T.from_numpy(w.copy()).requires_grad_() for w in ws0]
    bs = [T.from_numpy(b.copy()).requires_grad_() for b in bs0]
    x = T.from_numpy(x0.copy())

    def prep():
        state.clear()
        for p in ws + bs:
            p.grad = None
        h = x
        for w, b in zip(ws, bs, strict=True):
            h = F.relu(F.linear(h, w, b))
        state["out"] = h.sum()

    def run():
        state["out"].backward()
    prep()
    run()
    return prep, run


CASES = {"train": _train_case, "deep_backward": _deep_case}


def _module(engine):
    from .harness import import_engine
    return import_engine(engine, THREADS[0])


THREADS = [None]  # the thread count the parent asked for (set in __main__)


def probe(engine, case, size):
    prep, run = CASES[case](engine, size)
    out = {}
    prep()
    gc.collect()
    if _reset_hwm():
        rss0 = _status_kb("VmRSS")
        run()
        out["rss_peak"] = (_status_kb("VmHWM") - rss0) * 1024
        out["rss_after"] = (_status_kb("VmRSS") - rss0) * 1024
    if engine != "torch":
        tracemalloc.start()
        prep()
        gc.collect()
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        run()
        cur, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out["trace_peak"] = peak - base
        out["trace_after"] = cur - base
    return out


def measure(engine, case, size, timeout=600, threads=None):
    """Run one probe in a fresh interpreter; returns its dict or raises RuntimeError."""
    from .harness import THREAD_VARS
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", MALLOC_TRIM_THRESHOLD_="65536")
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    if threads is not None:
        env.update({v: str(threads) for v in THREAD_VARS})
    sz = {k: v for k, v in size.items() if k in ("mlp3", "deep_mlp")}
    sz["threads"] = threads
    p = subprocess.run([sys.executable, "-m", "benchmarks.memory", engine, case,
                        json.dumps(sz)], cwd=root, env=env, capture_output=True, text=True,
                       timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError((p.stderr.strip().splitlines() or ["failed"])[-1])
    return json.loads(p.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    from .harness import apply_threads
    _size = json.loads(sys.argv[3])
    THREADS[0] = _size.get("threads")
    apply_threads(THREADS[0])
    print(json.dumps(probe(sys.argv[1], sys.argv[2], _size)))
