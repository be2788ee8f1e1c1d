"""The formula language: syntax.py parses, check.py types, render.py emits Python and Chinese."""
