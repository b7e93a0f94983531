"""The harness: drives a target over HTTP and judges its answers against the contract."""
