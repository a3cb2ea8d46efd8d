"""The regex family's orchestration: the pattern catalogue, length escalation with censoring,
growth classification, correctness cross-checks. Used by commands/regex.py and families/regex.py."""
