"""The ground floor: what every room of the kit may use, and which knows nothing of the API.

`errors` (the kit's exception family), `jsonio` (JSON with exact integers), `base58`, `files` (the
one atomic writer, and the one staged folder for what is installed), `redaction` (keys out of URLs),
`retry_after` (the header's two forms) and `interrupts` (Ctrl-C and SIGTERM remembered, for the waits that
loop).
Nothing here imports a room above it (tests/test_layers.py).
"""
