"""What checks share to ask a target and judge its answers: walks over pages, sample params,
views of state, answer shapes, schema violations named, refusals expected, and an exact diff of two JSON
values (`compare`).

A room below the check families: a family imports from here, never from another family.
"""
