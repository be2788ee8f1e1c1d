"""Benchmarks: `python -m bench` runs them all and writes a Markdown table (see README)."""
