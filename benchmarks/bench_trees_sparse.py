"""Trees at the chain's scale: one far write, and the dense bulk writes that must not get slower.

- far: one leaf written at 60,000,000 (height 26), 2^31 - 1 (height 32) and 2^39 (height 40) of an
  empty tree, then its proof: wall time and the number of Poseidon hashes (= height);
- dense: a 100k-leaf `write_many` (100k appends and 1k nullifications) into an empty height-26
  tree, a 100k-leaf `write_leaves` at indices 0..99,999 and a 20k-value `AddressTree.insert_many`:
  CPU time, best of ``--repeat`` runs, each in a fresh interpreter.

``--baseline DIR`` also runs the dense part against the `ledger_crypto` package found in DIR (a copy of
an earlier version, e.g. made with `git worktree add DIR COMMIT`), and prints both.

    .venv/bin/python benchmarks/bench_trees_sparse.py
    .venv/bin/python benchmarks/bench_trees_sparse.py --baseline /tmp/before --repeat 5
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, machine

_DENSE = """
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
from csi_conformance.ledger_crypto import AddressTree, StateTree
rng = random.Random(1)
leaves = [rng.randrange(1, 2**250).to_bytes(32, "big") for _ in range(100_000)]
nullify = rng.sample(range(100_000), 1_000)
values = [rng.randrange(1, 2**248 - 1) for _ in range(20_000)]
def cpu(work):
    start = time.process_time()
    work()
    return round(time.process_time() - start, 3)
print(json.dumps({
    "write_many_s": cpu(lambda: StateTree().write_many(appends=leaves, nullify=nullify)),
    "write_leaves_s": cpu(lambda: StateTree().write_leaves(dict(enumerate(leaves)), seq=1)),
    "insert_many_s": cpu(lambda: AddressTree().insert_many(values)),
}))
"""


def dense(package_root: Path, repeat: int) -> dict[str, float]:
    """Best of ``repeat`` fresh-interpreter runs of the dense bulk writes."""
    runs = []
    for _ in range(repeat):
        done = subprocess.run([sys.executable, "-c", _DENSE, str(package_root)], cwd=ROOT,
                              capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return {key: min(run[key] for run in runs) for key in runs[0]}


def far() -> list[dict]:
    from csi_conformance.ledger_crypto import StateTree, fold_path, merkle

    class Counting:
        def __init__(self, real: object) -> None:
            self.real, self.calls = real, 0

        def hash_bytes_be(self, inputs: list[bytes]) -> str:
            self.calls += 1
            return self.real.hash_bytes_be(inputs)

    counter = Counting(merkle._HASHER2)
    merkle._HASHER2 = counter
    rows = []
    try:
        for height, index in ((26, 60_000_000), (32, 2**31 - 1), (40, 2**39)):
            tree = StateTree(height=height)
            leaf = (12345).to_bytes(32, "big")
            counter.calls = 0
            start = time.perf_counter()
            tree.write_leaves({index: leaf}, seq=1)
            write_ms = (time.perf_counter() - start) * 1000
            hashes = counter.calls
            start = time.perf_counter()
            path = tree.proof(index)
            proof_ms = (time.perf_counter() - start) * 1000
            assert fold_path(leaf, index, path) == tree.root
            rows.append({"height": height, "index": index, "write_ms": round(write_ms, 2), "hashes": hashes,
                         "proof_ms": round(proof_ms, 3)})
    finally:
        merkle._HASHER2 = counter.real
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="a directory holding an earlier ledger_crypto package")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(machine())
    sys.path.insert(0, str(ROOT))
    for row in far():
        print(f"far write: height {row['height']}, leaf {row['index']:,}: {row['write_ms']:.2f} ms, "
              f"{row['hashes']} hashes; proof {row['proof_ms']:.3f} ms")
    sets = [("this tree", ROOT)] + ([("baseline", args.baseline)] if args.baseline else [])
    for name, root in sets:
        row = dense(root, args.repeat)
        print(f"dense ({name}, CPU, best of {args.repeat}): write_many 100k+1k {row['write_many_s']:.2f} s, "
              f"write_leaves 100k {row['write_leaves_s']:.2f} s, address insert_many 20k {row['insert_many_s']:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
