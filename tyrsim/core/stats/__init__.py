"""The statistics room: the uncertainty of every Monte Carlo number. Intervals, tests and sample sizes,
the comparison of a scenario's variants against its baseline, a game's balance measures, policy ratings
(Bradley-Terry) and rule sensitivity (Sobol' indices and regression)."""
