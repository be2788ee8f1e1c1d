"""`python -m compiler` is the same as the `rulec` command."""

from .cli.entry import main

main()
