"""The harness's lowest layer: errors and the result model; imports nothing above it."""
