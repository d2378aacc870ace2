"""tyrsim: Monte Carlo strategy analysis for Tyranno Ex, Zooloretto Duell, Tyros and Tiny Epic Dinosaurs."""

__version__ = "0.1.0"
