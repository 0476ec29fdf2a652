"""``python -m benchmarks`` / ``python benchmarks/run.py``: the workloads of issue 4.

Each engine runs in its own subprocess with the same thread settings, sampled round-robin
(Note [Fair timing] in harness.py). Flags: --quick (tiny sizes, 2 repeats: the CI smoke
run), --only N[,M], --repeats K, --big (add the 1,000,000-op deep graph), --threads N
(every engine's BLAS/OpenMP threads; default: the usable cores), --clock cpu (time each
worker's CPU time: with --threads 1, for a busy machine), --markdown (also print a table
for RESULTS.md).
"""
import argparse
import os
import sys
import time

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from benchmarks import harness, memory, workloads
else:
    from . import harness, memory, workloads

FULL = dict(chain_ops=200, mlp2=(64, 128, 128, 10, 32), mlp3=(784, 512, 512, 10, 128),
            matmul_n=1024, deep_ops=(10_000,), big_deep_ops=1_000_000, scalar_ops=1000,
            deep_mlp=(32, 512, 256), lenet=(64, 28), resblock=(32, 64, 32),
            transformer=(16, 64, 128, 4), einsum=(256, 512), digits=64)
QUICK = dict(chain_ops=16, mlp2=(8, 16, 16, 4, 4), mlp3=(32, 16, 16, 10, 8), matmul_n=32,
             deep_ops=(200,), big_deep_ops=2000, scalar_ops=50, deep_mlp=(4, 16, 8),
             lenet=(2, 16), resblock=(2, 4, 6), transformer=(2, 8, 16, 2), einsum=(4, 8), digits=8)
TITLES = {1: "op overhead", 2: "small MLP", 3: "MNIST-sized MLP", 4: "matmul chain",
          5: "deep graph", 6: "memory", 7: "scalar graph", 8: "digits CNN step",
          9: "convolutions", 10: "transformer block", 11: "einsum"}
DEFAULT_REPEATS = 11


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="tiny sizes and 2 repeats (CI smoke)")
    p.add_argument("--only", default="", help="comma-separated workload numbers, e.g. 1,5")
    p.add_argument("--repeats", type=int, default=None,
                   help=f"timed samples per engine (default {DEFAULT_REPEATS}, quick 2)")
    p.add_argument("--big", action="store_true", help="include the 1,000,000-op deep graph")
    p.add_argument("--threads", type=int, default=None,
                   help="BLAS/OpenMP threads of every engine (default: the usable cores)")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="wall time (default) or each worker's CPU time: with --threads 1 "
                        "the measurement for a busy machine (Note [Fair timing])")
    p.add_argument("--markdown", action="store_true", help="print a table for RESULTS.md")
    args = p.parse_args(argv)
    try:
        args.only = sorted({int(x) for x in args.only.split(",") if x.strip()}) or list(TITLES)
    except ValueError:
        p.error("--only takes workload numbers, e.g. --only 1,5")
    if args.repeats is None:
        args.repeats = 2 if args.quick else DEFAULT_REPEATS
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    return args


MEMORY_TARGET = 1.1  # issue 14: extra peak memory of a step <= 1.1 x the NumPy floor's


class Row:
    """One line of the markdown table."""

    def __init__(self, workload, case, unit, values, ratios, target="", status="", load="",
                 compiled=None):
        """ratios: engine -> (median, lower quartile, upper quartile); compiled: the same
        for the compiled column's ratios, and its target and status."""
        self.workload, self.case, self.unit = workload, case, unit
        self.values, self.ratios, self.target, self.status = values, ratios, target, status
        self.load = load
        self.compiled = compiled or ({}, "", "")


def _row_of(res):
    b = res.bench
    values = {e: res.value(e) for e in res.medians}
    target, status = "", ""
    ratios = res.ratios()
    if b.target:
        te, tr = b.target
        target = f"at/{te} <= {tr:g}"
        if te in ratios:
            status = "met" if ratios[te][0] <= tr else "missed"
    if not res.check_ok:
        status = (status + ", " if status else "") + "GRADIENTS DIFFER"
    load = f"{min(res.loads):.1f}-{max(res.loads):.1f}" if res.loads else ""
    if res.share:
        load += f" (cpu/wall {min(res.share.values()):.2f}-{max(res.share.values()):.2f})"
    cratios = res.ratios(harness.COMPILED)
    ctarget, cstatus = "", ""
    if b.compiled_target:
        te, tr = b.compiled_target
        ctarget = f"c/{te} <= {tr:g}"
        if te in cratios:
            cstatus = "met" if cratios[te][0] <= tr else "missed"
    return Row(b.workload, b.case, res.unit, values, ratios, target, status, load,
               (cratios, ctarget, cstatus))


def _timed(w, size, args, out, rows, engine_facts):
    modules = {e: None for e in ("autotensor", "torch") if harness.engine_available(e)}
    if w in workloads.COMPILED_WORKLOADS:
        modules[harness.COMPILED] = None
    benches = workloads.BUILDERS[w](dict(size, modules=modules))  # cases only
    results, facts = harness.run_workload(w, benches, size, args.threads, args.repeats,
                                          quick=args.quick, clock=args.clock)
    for e, f in facts.items():
        engine_facts.setdefault(e, f)
    ok = True
    for res in results:
        harness.print_result(res, out)
        rows.append(_row_of(res))
        ok = ok and res.check_ok and not res.errors
    return ok


def _memory(size, threads, out, rows):
    ok = True
    layers, width, batch = size["deep_mlp"]
    s3 = size["mlp3"]
    cases = (("train", f"training step of workload 3 (MLP {'-'.join(map(str, s3[:-1]))}, "
                       f"batch {s3[-1]})"),
             ("deep_backward", f"backward of a {layers}-layer MLP (width {width}, batch "
                               f"{batch}, Linear+ReLU)"))
    for case, title in cases:
        res = {}
        out(f"  [6] {title}")
        for e in harness.ENGINES:
            if not harness.engine_available(e):
                continue
            try:
                res[e] = memory.measure(e, case, size, threads=threads)
            except Exception as exc:
                ok = False
                out(f"      {e}: ERROR {type(exc).__name__}: {exc}")
        for key, label, engines in (
                ("trace", "tracemalloc extra peak (torch: invisible to tracemalloc)",
                 ("autotensor", "numpy")),
                ("rss", "peak RSS extra (VmHWM, fresh process)",
                 ("autotensor", "torch", "numpy"))):
            vals = {e: res[e][key + "_peak"] / memory.MB for e in engines
                    if e in res and key + "_peak" in res[e]}
            after = {e: res[e][key + "_after"] / memory.MB for e in engines
                     if e in res and key + "_after" in res[e]}
            if not vals:
                continue
            cells = " | ".join(f"{e} {v:.2f} MB (after {after[e]:+.2f})"
                               for e, v in vals.items())
            out(f"      {label}: {cells}")
            ratios = {e: vals["autotensor"] / v for e, v in vals.items()
                      if e != "autotensor" and "autotensor" in vals and v > 0}
            status = ""
            if "numpy" in ratios:
                status = "met" if ratios["numpy"] <= MEMORY_TARGET else "missed"
            if ratios:
                out("      ratio " + "   ".join(f"autotensor/{e} {r:.2f}"
                                                for e, r in ratios.items())
                    + (f"   (target autotensor/numpy <= {MEMORY_TARGET:g}: {status})"
                       if status else ""))
            rows.append(Row(6, f"{title}: {label.split(' (')[0]}", "MB", vals,
                            {e: (r, r, r) for e, r in ratios.items()},
                            f"at/numpy <= {MEMORY_TARGET:g}", status))
    return ok


def markdown(rows, facts):
    lines = ["| # | case | unit | autotensor | torch | numpy | other | at/torch | at/numpy "
             "| target | status | compiled | c/torch | c/numpy | c target | c status "
             "| load (cpu/wall) |", "|---" * 17 + "|"]

    def cell(v):
        return harness.fmt_value(v) if v is not None else "–"
    for r in rows:
        other = ", ".join(f"{e} {cell(v)}" for e, v in r.values.items()
                          if e not in harness.ENGINES and e != harness.COMPILED) or "–"
        crat, ctarget, cstatus = r.compiled
        comp = (f"{cell(r.values.get(harness.COMPILED))} | "
                f"{harness.fmt_ratio(crat['torch']) if 'torch' in crat else '–'} | "
                f"{harness.fmt_ratio(crat['numpy']) if 'numpy' in crat else '–'} | "
                f"{ctarget} | {cstatus}")
        rat = {e: harness.fmt_ratio(x) for e, x in r.ratios.items()}
        for e, x in r.ratios.items():
            if e not in harness.ENGINES:
                rat["numpy"] = rat.get("numpy", "–") + f" (at/{e} {harness.fmt_ratio(x)})"
        lines.append(f"| {r.workload} | {r.case} | {r.unit} | {cell(r.values.get('autotensor'))}"
                     f" | {cell(r.values.get('torch'))} | {cell(r.values.get('numpy'))} | {other}"
                     f" | {rat.get('torch', '–')} | {rat.get('numpy', '–')} | {r.target} | "
                     f"{r.status} | {comp} | {r.load} |")
    head = [f"- {k}: {v}" for k, v in facts.items()]
    return "\n".join(head + [""] + lines)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.threads is None:
        args.threads = len(os.sched_getaffinity(0))
    size = dict(QUICK if args.quick else FULL)
    if args.big:
        size["deep_ops"] = tuple(size["deep_ops"]) + (size["big_deep_ops"],)
    out = print
    facts = harness.machine_facts(args.threads)
    facts["clock"] = ("CPU time of each engine's process (time.process_time)"
                      if args.clock == "cpu" else "wall time (time.perf_counter)")
    if args.clock == "cpu" and args.threads != 1:
        facts["clock"] += " -- WARNING: sums several threads; use it with --threads 1"
    out("autotensor benchmarks (issues 4, 14)" + ("  [--quick: tiny sizes, not a measurement]"
                                                  if args.quick else ""))
    for k, v in facts.items():
        out(f"  {k}: {v}")
    out(f"  repeats: {args.repeats} samples per engine; each engine in its own process, "
        "sampled round-robin; medians; ratios = medians of paired samples [quartiles]; gc "
        "enabled (collected before each sample; objects of the imports frozen)")
    t_start = time.perf_counter()
    rows, ok, engine_facts = [], True, {}
    for w in args.only:
        if w not in TITLES:
            out(f"\n== {w}: no such workload (1-{max(TITLES)}) ==")
            ok = False
            continue
        out(f"\n== {w}. {TITLES[w]} ==")
        t0 = time.perf_counter()
        try:
            if w == 6:
                ok = _memory(size, args.threads, out, rows) and ok
            else:
                ok = _timed(w, size, args, out, rows, engine_facts) and ok
        except Exception as exc:  # one broken workload must not hide the others
            ok = False
            out(f"  ERROR {type(exc).__name__}: {exc}")
        out(f"  ({time.perf_counter() - t0:.1f} s)")
    for e, f in engine_facts.items():
        for k, v in f.items():
            facts[f"{e} process: {k}"] = v
            out(f"  {e} process: {k}: {v}")
    facts["load at end"] = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    out(f"  load at end: {facts['load at end']}")
    out(f"\ntotal {time.perf_counter() - t_start:.1f} s; "
        + ("all engines ran and agreed" if ok else "SOME ENGINE FAILED OR DISAGREED"))
    if args.markdown:
        out("\n" + markdown(rows, facts))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
