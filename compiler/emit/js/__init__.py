"""The JavaScript target: an ES module, its types, a package.json and a single-file script."""
