"""The local web page of `nutcore serve` (server.py; needs the extra `nutcore[web]`) and its static
files (static/: the page, the per-game boards)."""
