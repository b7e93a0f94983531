-- wrk script: POST one JSON-RPC body, given as the script's first argument.
-- wrk -t1 -c32 -d10s -s benchmarks/rpc.lua http://127.0.0.1:8784/ '{"jsonrpc":"2.0","id":"b","method":"getIndexerSlot"}'
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.body = args[1]
end
