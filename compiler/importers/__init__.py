"""Importers: third-party data files -> rules YAML."""
