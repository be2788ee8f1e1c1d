"""`python -m compiler` is the same as the `rulec` command."""

from compiler.cli import main

main()
