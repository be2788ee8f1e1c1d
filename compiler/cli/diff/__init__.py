"""`rulec diff`: what changed between two rule folders, packs or git revisions (docs/diff.md)."""
