"""`python -m bench [--quick] [--only NAME ...]`: run every benchmark, print and save a Markdown table."""

from bench.run import main

main()
