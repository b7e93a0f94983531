"""A bare Starlette + uvicorn JSON-RPC echo: the yardstick for the reference server's throughput.

It parses the request and answers `{jsonrpc, id, result: params}`, with the uvicorn settings
`csi serve` uses (httptools, uvloop, no access log), so a ratio to it measures what the
reference adds to a minimal JSON-RPC app on the same stack.

    .venv/bin/python benchmarks/echo_app.py --port 8790
"""

from __future__ import annotations

import argparse
import json

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route


async def echo(request: Request) -> Response:
    call = json.loads(await request.body())
    answer = {"jsonrpc": "2.0", "id": call.get("id"), "result": call.get("params")}
    return Response(json.dumps(answer, separators=(",", ":")), media_type="application/json")


app = Starlette(routes=[Route("/", echo, methods=["POST"])])

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8790)
    args = parser.parse_args()
    uvicorn.run(app, host="127.0.0.1", port=args.port, http="httptools", loop="uvloop", access_log=False,
                log_level="warning")
