"""Upper limits on the sizes a user can ask for, on the command line and in scenario files alike.

They are checked before anything is computed or allocated, so an absurd size is a usage error
naming the option or key instead of an overflow, a hang or memory running out. Documented in
docs/scenarios.md ("Limits") and in the `--help` of the commands that take sizes.
"""

MAX_TRIALS = 10**9  # trials (fights, games, ranches, ...) at one sweep point
MAX_TOTAL_TRIALS = 10**10  # trials of a whole scenario, over all its sweep points
MAX_POINTS = 10_000  # sweep points of a scenario (the product of its sweep lists)
MAX_MATCHUPS = 100_000  # Tyranno Ex combat: matchups in one odds table (each holds a row of exact odds)
MAX_JOBS = 256  # the most worker processes a run may ask for (--jobs)
