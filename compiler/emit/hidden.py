"""The characters no generated comment, docstring or userscript header line shows as they are:
C1 controls, the line and paragraph separators, bidirectional controls, zero-width and other
invisible format characters, and lone surrogates. One definition for both code writers
(emit/python/code.py, emit/js/code.py), each adding the C0 controls its own syntax needs kept or
removed (a Python docstring keeps its line breaks; a JS comment is one line)."""

INVISIBLE = ("\\x7f-\\x9f\\xad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb"
             "\\ud800-\\udfff")
