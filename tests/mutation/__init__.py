"""Mutation testing on demand (`make mutate`, never in CI): cosmic-ray mutates the modules a change touches,
one mutant at a time, in a copy of the working tree, and runs the tests that answer for each module. A mutant
those tests pass is a survivor: a bug shaped like it would pass too. docs/mutation.md tells how to run it."""
