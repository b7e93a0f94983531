"""Real validity proofs: the light prover (install, run) and Groth16 verification of `compressedProof`.

A layer of its own, used by the reference server (to serve real proofs) and by the harness (to
verify them). It may import `ledger_crypto` and `schema`, never `harness` or `reference_server`.
See docs/real-proofs.md.
"""
