"""The run room: how a question becomes results. Scenario files, the sweep of a scenario's points as
tasks (their store keys, the worker processes or Dask cluster that run them), the result store, progress
on long work, the default report's runs, output folders and tables as text, and the substitutions a run
makes in place of what was asked."""
