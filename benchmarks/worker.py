"""One engine's side of a workload: ``python -m benchmarks.worker ENGINE WORKLOAD SIZE_JSON``.

The parent (``harness.run_workload``) starts one worker per engine for each workload, all
together, and then drives them through a pipe, one command at a time, so that the engines'
samples alternate in time (round-robin) and machine noise hits them alike. Each worker
imports only its own engine: torch's OpenMP pool and NumPy's OpenBLAS threads never share
a process (sharing one slowed torch's small ops by up to 4 x on 2 cores, issue 14).

Protocol: pickled dicts, one per message; requests on stdin, replies on a duplicate of the
original stdout (file descriptor 1 then points to stderr, so that a stray print, from
Python or C, cannot corrupt the pipe).
Requests: ``prepare`` (build bench i, run its first step, return its gradients and
calibrate the steps per sample), ``sample`` (reset, collect, time n steps), ``drop``,
``quit``. Every reply has ``error`` set (a message) or not. A sample reports both clocks:
wall time and this process's CPU time (all its threads), per step.
"""
import gc
import math
import os
import pickle
import sys
import time


def _reply(pipe, msg):
    pickle.dump(msg, pipe, protocol=pickle.HIGHEST_PROTOCOL)
    pipe.flush()


def _grads(runner):
    g = runner[1]
    if g is None:
        return None
    import numpy as np
    return [None if x is None else np.array(x, copy=True) for x in g()]


def serve(engine, workload, size, inp, out):
    from . import harness, workloads
    try:
        facts = harness.apply_threads(size.get("threads"))
        module = harness.import_engine(engine, size.get("threads"))
        size = dict(size, modules={} if module is None else {engine: module})
        benches = workloads.BUILDERS[workload](size)
        facts.update(harness.process_facts(module))
    except Exception as exc:
        _reply(out, {"error": f"{type(exc).__name__}: {exc}"})
        return
    gc.collect()
    gc.freeze()  # the imported modules' objects: out of every later collection's way
    _reply(out, {"facts": facts})
    runner, inner = None, 1
    while True:
        try:
            req = pickle.load(inp)
        except EOFError:
            return
        op = req["op"]
        try:
            if op == "quit":
                _reply(out, {})
                return
            if op == "drop":
                runner = None
                gc.collect()
                _reply(out, {})
            elif op == "prepare":
                runner = None
                gc.collect()
                runner = benches[req["bench"]].factories[engine]()
                runner[0]()  # first step: the gradients to check, and a warm-up
                grads = _grads(runner)
                inner = 1
                if req["min_sample"] > 0:  # calibrate: steps per sample of >= min_sample s
                    # (the fastest of 3 steps, on the clock that ran fastest: on a loaded
                    # machine one step's wall time can include a 30 ms wait, and samples
                    # of a few steps are then short and noisy)
                    dt = math.inf
                    for _ in range(3):
                        gc.collect()
                        c0, t0 = time.process_time(), time.perf_counter()
                        runner[0]()
                        dt = min(dt, time.perf_counter() - t0, time.process_time() - c0)
                    inner = max(1, min(10000, math.ceil(req["min_sample"] / max(dt, 1e-9))))
                _reply(out, {"grads": grads, "inner": inner})
            elif op == "sample":
                step = runner[0]
                if len(runner) > 2:
                    runner[2]()  # untimed reset: every sample times the same trajectory
                gc.collect()
                c0, t0 = time.process_time(), time.perf_counter()
                for _ in range(inner):
                    step()
                dt, dc = time.perf_counter() - t0, time.process_time() - c0
                _reply(out, {"wall": dt / inner, "cpu": dc / inner})
            else:
                _reply(out, {"error": f"unknown request {op!r}"})
        except Exception as exc:
            _reply(out, {"error": f"{type(exc).__name__}: {exc}"})


if __name__ == "__main__":
    import json
    proto_out = os.fdopen(os.dup(1), "wb")  # the pipe to the parent: ours alone
    os.dup2(2, 1)  # anything else written to stdout (Python or C) goes to stderr
    sys.stdout = sys.stderr
    serve(sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), sys.stdin.buffer, proto_out)
