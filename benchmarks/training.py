"""Training workloads of issue 12: a digits-CNN epoch, an LSTM language-model step, an
Adam step over 1M parameters -- autotensor against torch.

    python -m benchmarks.training [--repeat 3] [--quick] [--clock cpu] [--rounds 1]

Each (engine, workload) runs in a fresh subprocess (one BLAS thread each), so that no
engine shares a process, a heap or a thread pool with the other. Both engines get the same
data and, after ``manual_seed(0)``, the same weights. Standalone (nothing from harness.py).

- ``digits-epoch``: the model of ``autotensor.examples.digits`` (Conv2d-BatchNorm-ReLU-
  MaxPool twice, Dropout, Linear; Adam), one epoch over 1,437 8x8 images in batches of 64
  (synthetic images of the digits' shapes: no scikit-learn needed). Time of the epoch.
- ``lstm-step``: Embedding(1000, 128) -> LSTM(128, 128) -> Linear(128, 1000), batch 32,
  sequence 35, cross-entropy, backward, SGD step. Median step time.
- ``adam-1m``: ``optimizer.step()`` of Adam over 1,000,000 parameters (four 500x500
  tensors) with gradients in place. Median step time.
Targets (issue 12): digits and LSTM at most 1.5x torch, Adam at most 1.2x.

On a shared machine one (autotensor, torch) pair of processes can land in different
minutes of load; ``--rounds N`` runs N pairs alternately (autotensor, torch, autotensor,
...) and reports each engine's median over the rounds, their ratio, and every round's
ratio below the row, with the load average before and after.
"""
import argparse
import json
import os
import subprocess
import sys
import time

WORKLOADS = ("digits-epoch", "lstm-step", "adam-1m")
# The timer: wall time (perf_counter), or with --clock cpu the worker's CPU time, which on
# a machine busy with other jobs leaves out the time the worker waited for a core (one
# thread per engine: it then measures the work alone; Note [Fair timing] in harness.py).
CLOCK = [time.perf_counter]


def _median(ts):
    ts = sorted(ts)
    return ts[len(ts) // 2]


def digits_epoch(m, np, quick, repeat):
    from autotensor.examples.digits import build_model
    n = 256 if quick else 1437
    rng = np.random.RandomState(0)
    x = m.tensor(rng.rand(n, 1, 8, 8).astype(np.float32) * 16)
    y = m.tensor(rng.randint(0, 10, n).astype(np.int64))
    m.manual_seed(0)
    model = build_model(m)
    opt = m.optim.Adam(model.parameters(), lr=0.01)
    loss_fn = m.nn.CrossEntropyLoss()

    def epoch():
        for i in range(0, n, 64):
            loss = loss_fn(model(x[i:i + 64]), y[i:i + 64])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        return loss.item()

    last = epoch()   # warm up
    times = []
    for _ in range(repeat):
        t0 = CLOCK[0]()
        last = epoch()
        times.append(CLOCK[0]() - t0)
    return _median(times), last


def lstm_step(m, np, quick, repeat):
    vocab, hidden, batch, seq = (50, 16, 4, 5) if quick else (1000, 128, 32, 35)
    m.manual_seed(0)
    emb = m.nn.Embedding(vocab, hidden)
    rnn = m.nn.LSTM(hidden, hidden)
    head = m.nn.Linear(hidden, vocab)
    params = list(emb.parameters()) + list(rnn.parameters()) + list(head.parameters())
    opt = m.optim.SGD(params, lr=0.1)
    rng = np.random.RandomState(0)
    data = m.tensor(rng.randint(0, vocab, (seq + 1, batch)).astype(np.int64))
    x, y = data[:-1], data[1:]

    def step():
        out, _ = rnn(emb(x))
        loss = m.nn.functional.cross_entropy(head(out).reshape(-1, vocab), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss.item()

    last = step()
    times = []
    for _ in range(repeat * 5):
        t0 = CLOCK[0]()
        last = step()
        times.append(CLOCK[0]() - t0)
    return _median(times), last


def adam_1m(m, np, quick, repeat):
    side = 50 if quick else 500
    rng = np.random.RandomState(0)
    params = [m.tensor(rng.randn(side, side).astype(np.float32), requires_grad=True)
              for _ in range(4)]
    for p in params:
        p.grad = m.tensor(rng.randn(side, side).astype(np.float32))
    opt = m.optim.Adam(params, lr=1e-3)
    opt.step()
    times = []
    for _ in range(repeat * 5):
        t0 = CLOCK[0]()
        opt.step()
        times.append(CLOCK[0]() - t0)
    return _median(times), float(params[0].detach().sum())


def worker(engine, workload, quick, repeat):
    import importlib
    import numpy as np
    m = importlib.import_module(engine)
    if engine == "torch":
        m.set_num_threads(1)
    fn = {"digits-epoch": digits_epoch, "lstm-step": lstm_step, "adam-1m": adam_1m}[workload]
    seconds, check = fn(m, np, quick, repeat)
    return {"engine": engine, "workload": workload, "ms": seconds * 1e3, "check": check}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="tiny sizes, one repeat (smoke)")
    p.add_argument("--engines", default="autotensor,torch")
    p.add_argument("--workloads", default=",".join(WORKLOADS))
    p.add_argument("--worker", nargs=2, metavar=("ENGINE", "WORKLOAD"))
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="wall time (default) or each worker's CPU time (a busy machine)")
    p.add_argument("--rounds", type=int, default=1,
                   help="alternate the engines' processes this many times; medians")
    args = p.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    if args.worker:
        print(json.dumps(worker(*args.worker, args.quick, repeat)))
        return
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    load0 = os.getloadavg()[0]
    print("| workload | autotensor (ms) | torch (ms) | ratio autotensor/torch |")
    print("|---|---|---|---|")
    for workload in args.workloads.split(","):
        runs = {}
        for _ in range(max(1, args.rounds)):
            for engine in args.engines.split(","):
                cmd = [sys.executable, "-m", "benchmarks.training", "--worker", engine,
                       workload, "--repeat", str(repeat), "--clock", args.clock] + (
                           ["--quick"] if args.quick else [])
                out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=root)
                if out.returncode:
                    print(f"{workload} {engine} failed: {out.stderr.strip()[-400:]}")
                    continue
                ms = json.loads(out.stdout.strip().splitlines()[-1])["ms"]
                runs.setdefault(engine, []).append(ms)
        a, t = (_median(runs[e]) if runs.get(e) else None for e in ("autotensor", "torch"))
        ratio = f"{a / t:.2f}" if a and t else "-"
        fmt = (lambda ms: f"{ms:.2f}" if ms else "-")   # noqa: E731
        print(f"| {workload} | {fmt(a)} | {fmt(t)} | {ratio} |", flush=True)
        if args.rounds > 1 and a and t:
            rs = sorted(x / y for x, y in zip(runs["autotensor"], runs["torch"]))
            print(f"  ({workload}: {len(rs)} rounds, per-round ratios "
                  f"{' '.join(f'{r:.2f}' for r in rs)}; load average {load0:.1f} -> "
                  f"{os.getloadavg()[0]:.1f})", flush=True)

if __name__ == "__main__":
    main()
