"""Tools over the golden cases: fill answers from the reference, generate requests, check, and the `csi cases`
command. They run the reference server, so they live apart from the case data the harness reads."""
