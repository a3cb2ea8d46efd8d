"""Night-to-night tracking: comparing two runs (compare), trends and change points across runs
(history), and how far a verdict can be trusted on this machine (calibrate)."""
