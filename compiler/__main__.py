"""`python -m compiler` is the same as the `rulec` command."""

from .entry import main

main()
