#!/usr/bin/env bash
# A bounded loopback load against `csi serve` over a large generated ledger: wrk, 32 connections,
# a mix of point lookups, pages and proofs (benchmarks/load_mix.lua), the server's RSS sampled
# every second. Expected: zero answers other than HTTP 200 results, zero socket errors, flat memory.
# Needs wrk (Debian: apt-get install -y wrk).
# Usage: benchmarks/load_reference.sh [ACCOUNTS] [SECONDS] [CONNECTIONS]   (defaults 100000 60 32)
set -euo pipefail
cd "$(dirname "$0")/.."
accounts=${1:-100000}; seconds=${2:-60}; connections=${3:-32}; port=${PORT:-8787}
work=$(mktemp -d)
ledger=${LEDGER:-/tmp/csi-load-$accounts-seed1.yaml}  # kept between runs: generating 100k accounts takes a while

if [[ ! -s $ledger ]]; then
  echo "generating a ledger of $accounts accounts into $ledger" >&2
  .venv/bin/csi scenario generate --accounts "$accounts" --seed 1 -o "$ledger.part" && mv "$ledger.part" "$ledger"
fi

started=$(date +%s)
.venv/bin/csi serve --port "$port" --scenario "$ledger" 2>"$work/serve.log" & server=$!
sampler=
trap 'kill $server ${sampler:-} 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
until .venv/bin/python -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null; do
  kill -0 $server 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
  sleep 0.5
done
echo "server up after $(( $(date +%s) - started )) s (ledger load and build)" >&2

.venv/bin/python benchmarks/load_requests.py "http://127.0.0.1:$port/" "$work/bodies.txt"
rss() { ps -o rss= -p "$server" | tr -d ' '; }
rss_start=$(rss)
( while kill -0 $server 2>/dev/null; do rss >>"$work/rss.txt"; sleep 1; done ) & sampler=$!

wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s -s benchmarks/load_mix.lua "http://127.0.0.1:$port/" "$work/bodies.txt"

kill $sampler 2>/dev/null || true
rss_end=$(rss)
echo "$rss_end" >>"$work/rss.txt"
rss_max=$(sort -n "$work/rss.txt" | tail -1)
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
echo "server RSS MiB: start $(mib "$rss_start"), end $(mib "$rss_end"), max $(mib "$rss_max")" \
     "($(wc -l <"$work/rss.txt") samples, one a second)"
