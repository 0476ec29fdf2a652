"""Activation checkpointing: peak memory and time of a 32-layer MLP training step.

    python -m benchmarks.checkpoint [--width 512] [--batch 256] [--repeat 5]

Three ways to run the same step (forward, backward, no optimizer): no checkpointing,
``checkpoint`` around every layer, and ``checkpoint_sequential`` with sqrt(32) ~ 6
segments; each for autotensor and for torch, each (engine, mode) in a fresh subprocess so
that no engine sees another's heap. Standalone (it uses nothing from harness.py).

Memory, as in benchmarks/memory.py: peak RSS above the RSS before the step (VmHWM after
resetting it through /proc/self/clear_refs), with MALLOC_MMAP_THRESHOLD_=65536 so that
freed buffers go back to the OS; for autotensor also tracemalloc's peak (NumPy reports its
buffers to it; torch's are invisible to it). Time: median wall time of the step.
Expected: per-layer checkpointing keeps one activation per layer boundary (the inputs of
each checkpoint) instead of several per layer; sequential checkpointing keeps O(sqrt(n))
boundaries plus one segment's activations; each costs about one extra forward.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

MB = 1024 * 1024
LAYERS = 32
MODES = ("none", "per-layer", "sequential")


def _status_kb(field):
    with open("/proc/self/status") as f:
        m = re.search(rf"^{field}:\s+(\d+) kB", f.read(), re.M)
    return int(m.group(1)) if m else 0


def _reset_hwm():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def worker(engine, mode, width, batch, repeat):
    import importlib
    import tracemalloc
    import numpy as np
    torch = importlib.import_module(engine)
    cp = importlib.import_module(engine + ".utils.checkpoint")
    rng = np.random.RandomState(0)
    weights = [torch.tensor((rng.randn(width, width) / np.sqrt(width)).astype(np.float32),
                            requires_grad=True) for _ in range(LAYERS)]
    x = torch.tensor(rng.randn(batch, width).astype(np.float32))

    def layer(w):
        return lambda h: torch.tanh(h @ w) * 1.5

    layers = [layer(w) for w in weights]

    def step():
        for w in weights:
            w.grad = None
        if mode == "none":
            h = x
            for f in layers:
                h = f(h)
        elif mode == "per-layer":
            h = x
            for f in layers:
                h = cp.checkpoint(f, h, use_reentrant=False)
        else:
            h = cp.checkpoint_sequential(layers, int(round(LAYERS ** 0.5)), x,
                                         use_reentrant=False)
        h.sum().backward()

    step()  # warm up (allocator, caches, the weights' .grad shapes)
    for w in weights:
        w.grad = None
    rss0 = _status_kb("VmRSS")
    hwm_ok = _reset_hwm()
    if engine == "autotensor":
        tracemalloc.start()
    step()
    traced = None
    if engine == "autotensor":
        traced = tracemalloc.get_traced_memory()[1] / MB
        tracemalloc.stop()
    peak_rss = (_status_kb("VmHWM") - rss0) / 1024 if hwm_ok else None
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    times.sort()
    return {"engine": engine, "mode": mode, "peak_rss_mb": peak_rss, "traced_mb": traced,
            "time_ms": times[len(times) // 2] * 1e3}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--width", type=int, default=512)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--engines", default="autotensor,torch")
    p.add_argument("--worker", nargs=2, metavar=("ENGINE", "MODE"))
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(*args.worker, args.width, args.batch, args.repeat)))
        return
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", OMP_NUM_THREADS="1",
               MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    activation = args.batch * args.width * 4 / MB
    print(f"32-layer MLP (tanh), width {args.width}, batch {args.batch}: one activation = "
          f"{activation:.2f} MB; step = forward + backward, median of {args.repeat}")
    print("| engine | mode | peak RSS above start (MB) | tracemalloc peak (MB) | time (ms) |")
    print("|---|---|---|---|---|")
    for engine in args.engines.split(","):
        for mode in MODES:
            out = subprocess.run(
                [sys.executable, "-m", "benchmarks.checkpoint", "--worker", engine, mode,
                 "--width", str(args.width), "--batch", str(args.batch),
                 "--repeat", str(args.repeat)],
                capture_output=True, text=True, env=env, cwd=root)
            if out.returncode:
                print(f"| {engine} | {mode} | failed: {out.stderr.strip()[-200:]} | | |")
                continue
            r = json.loads(out.stdout.strip().splitlines()[-1])
            rss = "-" if r["peak_rss_mb"] is None else f"{r['peak_rss_mb']:.1f}"
            tr = "-" if r["traced_mb"] is None else f"{r['traced_mb']:.1f}"
            print(f"| {engine} | {mode} | {rss} | {tr} | {r['time_ms']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
