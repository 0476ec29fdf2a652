"""Benchmarks of issues 4 and 14: autotensor against PyTorch and a hand-written NumPy floor.

Run ``python -m benchmarks`` (or ``python benchmarks/run.py``); ``--help`` lists the flags.
Every workload runs the same computation on each engine, each engine in its own process
(``worker.py``) with the same thread settings; the engines' gradients are checked against
each other first, then the engines are sampled round-robin and the report gives medians and
the ratios autotensor/torch and autotensor/NumPy as medians of paired samples (Note [Fair
timing] in ``harness.py``).
"""
