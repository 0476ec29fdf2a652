"""Standalone fuzzing: ``python -m tests.fuzz --minutes 30 --out DIR``.

Runs Hypothesis with fresh seeds until the time is up.  Each failure is shrunk by
Hypothesis to a minimal program and written to DIR as a runnable reproducer
(``python DIR/repro_NNN.py`` re-runs it on both libraries and raises the mismatch).
A failure whose signature (the op of the differing line and the kind of difference)
was already seen is skipped, so that one bug does not hide the others.
"""
from __future__ import annotations

import argparse
import faulthandler
import os
import random
import re
import sys
import time

# each side's address space (MemoryError, the program skipped), well under this 24 GiB
# machine's memory with a CI run beside the fuzzer
_MEMORY_GIB = 6
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TEMPLATE = '''"""Fuzz reproducer (autotensor vs PyTorch).

{message}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

{program}
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', {root!r}))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
{lines}
]

if __name__ == "__main__":
    run_and_compare(LINES)
'''


def signature(exc) -> str:
    msg = str(exc)
    first = msg.split("\n", 1)
    line = first[0]
    m = re.search(r"(\.\w+\(|torch\.\w+|[-+*/%@]=?|\[|backward|grad)", line.split(":", 1)[-1])
    op = m.group(0) if m else line[:30]
    rest = first[1] if len(first) > 1 else ""
    kind = re.search(r"(raised|dtype|shape|requires_grad|grad_fn|gave|keys|length|"
                     r"Not equal|Mismatch)", rest)
    return f"{op}|{kind.group(0) if kind else rest[:40]}"


class TorchCrashed(Exception):
    """PyTorch itself died on a program (a segfault or an abort: its bugs, e.g. the
    mark_dirty crash in OPEN_FINDINGS.md)."""


class TorchWorker:
    """PyTorch's side of every program in a separate, long-lived process (``python -m
    tests.fuzz --torch-worker``), fed pickled programs through a pipe: a PyTorch crash ends
    that process, not the fuzzing run; the program is skipped and a new worker started."""

    def __init__(self):
        self.proc = None

    def _start(self):
        import subprocess
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.fuzz", "--torch-worker"], cwd=_ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(self, program, dual, timeout=None):
        """PyTorch's result of ``program``; a worker that crashed, or that gave no answer
        within ``timeout`` seconds (killed), raises TorchCrashed."""
        import pickle
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            _send(self.proc.stdin, pickle.dumps((program, dual)))
            data = _receive(self.proc.stdout, timeout)
        except (BrokenPipeError, EOFError):
            data = None
        except TimeoutError:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            raise TorchCrashed(f"PyTorch's process gave no answer in {timeout:g} s") from None
        if data is None:
            status = self.proc.wait()
            self.proc = None
            raise TorchCrashed(f"PyTorch's process ended with status {status}")
        kind, value = pickle.loads(data)
        if kind == "too_big":
            raise TorchCrashed(f"PyTorch's side ran out of memory ({value})")
        if kind == "raised":
            raise value
        return value

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


def _send(stream, data):
    stream.write(len(data).to_bytes(8, "little") + data)
    stream.flush()


def _receive(stream, timeout=None):
    """One message; ``timeout``: seconds to wait for its first byte (TimeoutError). The
    stream holds no read-ahead between messages: each is a request's one answer."""
    if timeout is not None:
        import select
        if not select.select([stream], [], [], timeout)[0]:
            raise TimeoutError
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError
    n = int.from_bytes(head, "little")
    data = stream.read(n)
    if len(data) < n:
        raise EOFError
    return data


def torch_worker():
    """The worker's loop: (program, dual) in, ``render_and_run_torch``'s result out."""
    import pickle

    import torch

    from .core import ProgramTooBig, memory_limit, render_and_run_torch
    memory_limit(_MEMORY_GIB)
    # The pipes get descriptors of their own, and 0 and 1 become /dev/null and stderr: a
    # program (or a library under it) that reads stdin or prints, from Python or C, cannot
    # take or add bytes on the pipes (a desynchronised stream reads a length of gigabytes
    # and waits forever)
    stdin = os.fdopen(os.dup(0), "rb")
    stdout = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull)  # noqa: SIM115
    sys.stdout = sys.stderr
    while True:
        try:
            program, dual = pickle.loads(_receive(stdin))
        except EOFError:
            return 0
        try:
            payload = ("ok", render_and_run_torch(program, torch, dual))
        except ProgramTooBig as e:
            payload = ("too_big", str(e))
        except Exception as e:  # noqa: BLE001 -- re-raised in the parent
            payload = ("raised", e)
        try:
            data = pickle.dumps(payload)
        except Exception as e:  # noqa: BLE001
            data = pickle.dumps(("raised", RuntimeError(f"unpicklable torch result: {e}")))
        _send(stdout, data)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--out", default="fuzz-failures")
    parser.add_argument("--max-steps", type=int, default=12)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--in-process", action="store_true",
                        help="run PyTorch in this process (a PyTorch crash ends the run)")
    parser.add_argument("--torch-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--dual", type=float, default=0.25,
                        help="share of programs run inside a forward-AD level, their floating "
                             "leaves dual with random tangents (tangents compared too)")
    parser.add_argument("--hang-seconds", type=float, default=300,
                        help="a program autotensor runs longer than this ends the run: its "
                             "lines are in OUT/inflight_program.py, the stack on stderr")
    args = parser.parse_args(argv)
    if args.torch_worker:
        return torch_worker()

    from hypothesis import HealthCheck, given, settings, strategies as st

    import torch

    import autotensor

    from .core import Mismatch, ProgramTooBig, check_program, compare_lines, memory_limit
    from .strategies import programs
    memory_limit(_MEMORY_GIB)

    os.makedirs(args.out, exist_ok=True)
    inflight = os.path.join(args.out, "inflight_program.py")
    started = time.monotonic()
    deadline = started + args.minutes * 60
    seen: set[str] = set()
    count = [0]
    last: list = []
    written = 0
    crashes = [0]
    crashed = [0]  # (harness errors)
    too_big = [0]  # (programs skipped: out of memory under memory_limit)
    worker = None if args.in_process else TorchWorker()
    # each batch of 500 programs has its own Hypothesis seed, drawn from --seed: runs with
    # neighbouring seeds explore unrelated programs (seed + 1 per batch made run s + 1 the
    # run s shifted by one batch)
    batch_seeds = random.Random(args.seed if args.seed is not None else time.time_ns())

    # drawn with the program, so that shrinking keeps (or drops) the dual level knowingly
    duals = (st.floats(0, 1).map(lambda u: u < args.dual) if 0 < args.dual < 1
             else st.just(args.dual >= 1))

    @settings(max_examples=500, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), print_blob=False,
              report_multiple_bugs=False)
    @given(programs(max_steps=args.max_steps, catalogue=True), duals)
    def fuzz(program, dual):
        if time.monotonic() > deadline and not last:
            return
        count[0] += 1
        try:
            if worker is None:
                check_program(program, torch, autotensor, dual=dual)
            else:
                try:
                    lines, expected, final = worker.run(program, dual,
                                                        timeout=args.hang_seconds)
                except TorchCrashed as exc:
                    crashes[0] += 1
                    print(f"[{count[0]} programs] {exc}: program skipped", flush=True)
                    return
                # (a hang inside NumPy's C code, where no signal handler runs: the
                # watchdog thread dumps the stack and exits; the program is on disk)
                with open(inflight, "w") as f:
                    f.write("\n".join(src for src, _ in lines) + "\n")
                faulthandler.dump_traceback_later(args.hang_seconds, exit=True)
                try:
                    compare_lines(lines, expected, final, autotensor)
                finally:
                    faulthandler.cancel_dump_traceback_later()
        except ProgramTooBig as exc:
            too_big[0] += 1
            print(f"[{count[0]} programs] out of memory ({exc}): program skipped", flush=True)
        except Mismatch as exc:
            if signature(exc) in seen:
                return
            last[:] = [exc]
            raise

    while time.monotonic() < deadline:
        last.clear()
        try:
            fuzz._hypothesis_internal_use_seed = batch_seeds.getrandbits(64)
            fuzz()
        except Mismatch as exc:
            exc = last[0] if last else exc
            seen.add(signature(exc))
            written += 1
            path = os.path.join(args.out, f"repro_{written:03d}.py")
            lines = exc.lines[: (exc.index + 1) if exc.index is not None else None]
            program = "\n".join("    " + ln for src, _ in lines for ln in src.split("\n"))
            with open(path, "w") as f:
                f.write(TEMPLATE.format(
                    message=str(exc).replace('"""', "'''").replace("\\", "\\\\"),
                    program=program, root=_ROOT,
                    lines="\n".join(f"    {src!r}," for src, _ in lines)))
            print(f"[{count[0]} programs] mismatch -> {path}: {signature(exc)}", flush=True)
        except Exception as exc:  # noqa: BLE001 -- a crash of the harness itself
            # (Hypothesis replays the shrunk failing example last: the in-flight file
            # holds it when the crash came from the comparison)
            import traceback
            crashed[0] += 1
            path = os.path.join(args.out, f"harness_error_{crashed[0]:03d}.txt")
            with open(path, "w") as f:
                f.write(traceback.format_exc())
                if os.path.exists(inflight):
                    with open(inflight) as g:
                        f.write("\n# the last program compared:\n" + g.read())
            print(f"harness error: {type(exc).__name__}: {exc} -> {path}", file=sys.stderr)
    if worker is not None:
        worker.close()
    minutes = (time.monotonic() - started) / 60
    print(f"programs fuzzed: {count[0]} in {minutes:.1f} min "
          f"({count[0] / max(minutes, 1e-9):.0f} programs/minute); mismatches (distinct "
          f"signatures, one reproducer each): {written} in {args.out}"
          + (f"; PyTorch crashed on {crashes[0]} programs (skipped)" if crashes[0] else "")
          + (f"; {too_big[0]} programs out of memory (skipped)" if too_big[0] else ""))
    return 0 if not written else 1


if __name__ == "__main__":
    sys.exit(main())
