#!/usr/bin/env bash
# Requests per second of a point lookup (getCompressedAccount by hash) against `csi serve`.
# Needs wrk (Debian: apt-get install wrk). Usage: benchmarks/reference_point_lookup.sh [SCENARIO] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:-default}; seconds=${2:-10}; port=8786
.venv/bin/csi serve --port "$port" --scenario "$scenario" 2>/dev/null & pid=$!
trap 'kill $pid' EXIT
until .venv/bin/python -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null; do sleep 0.2; done
hash=$(.venv/bin/python - "$port" <<'PY'
import sys, httpx
url = f"http://127.0.0.1:{sys.argv[1]}/"
sig = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "getLatestCompressionSignatures",
                            "params": {"limit": 1}}).json()["result"]["value"]["items"][0]["signature"]
tx = httpx.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "getTransactionWithCompressionInfo",
                           "params": {"signature": sig}}).json()["result"]
print(tx["compressionInfo"]["openedAccounts"][0]["account"]["hash"])
PY
)
wrk -t2 -c32 -d"${seconds}s" -s benchmarks/point_lookup.lua "http://127.0.0.1:$port/" "$hash"
