"""The faces of the harness: the `csi` command, the pytest plugin and the Python API, all calling one
run session (`harness.engine.session.certify`)."""
