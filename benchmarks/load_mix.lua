-- wrk script: a mix of JSON-RPC requests read from a file, one request body per line.
-- wrk -t2 -c32 -d60s -s benchmarks/load_mix.lua http://127.0.0.1:8787/ <bodies-file>
-- Each connection walks the list from its own offset. At the end it prints the answers that were
-- not HTTP 200 and the HTTP 200 answers that held a JSON-RPC error, summed over the threads.

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  bodies = {}
  for line in io.lines(args[1]) do
    if #line > 0 then table.insert(bodies, line) end
  end
  index = math.random(#bodies)
  not_200, rpc_errors, answers = 0, 0, 0
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  index = index % #bodies + 1
  return wrk.format(nil, nil, nil, bodies[index])
end

function response(status, headers, body)
  answers = answers + 1
  if status ~= 200 then
    not_200 = not_200 + 1
  elseif body:find('"error":{', 1, true) then
    rpc_errors = rpc_errors + 1
  end
end

function done(summary, latency, requests)
  local total_not_200, total_errors, total_answers = 0, 0, 0
  for _, thread in ipairs(threads) do
    total_not_200 = total_not_200 + thread:get("not_200")
    total_errors = total_errors + thread:get("rpc_errors")
    total_answers = total_answers + thread:get("answers")
  end
  local errors = summary.errors
  io.write(string.format("answers %d, not HTTP 200: %d, JSON-RPC errors: %d\n", total_answers, total_not_200,
                         total_errors))
  io.write(string.format("socket errors: connect %d, read %d, write %d, timeout %d\n", errors.connect, errors.read,
                         errors.write, errors.timeout))
  io.write(string.format("latency ms: mean %.1f, p50 %.1f, p99 %.1f, max %.1f\n", latency.mean / 1000,
                         latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
