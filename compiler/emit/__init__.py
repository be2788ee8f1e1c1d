"""Pass 4, emit: IR -> text. `python_pkg` writes the resolver packages, `reference` the pages."""
