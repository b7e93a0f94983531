"""What checks share to ask a target and judge its answers: walks over pages, sample params,
live re-reads, views of state, answer shapes, schema violations named, refusals expected.

A room below the check families: a family imports from here, never from another family.
"""
