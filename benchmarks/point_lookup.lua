-- wrk script: POST getCompressedAccount by hash (the hash is passed as the first script argument).
-- wrk -t2 -c32 -d10s -s benchmarks/point_lookup.lua http://127.0.0.1:8784/ <hash>
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.body = '{"jsonrpc":"2.0","id":"bench","method":"getCompressedAccount","params":{"hash":"' .. args[1] .. '"}}'
end
