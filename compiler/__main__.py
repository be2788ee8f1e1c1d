"""`python -m compiler` is the same as the `rulec` command."""

from .cli import main

main()
