"""Learning a game's evaluation by self-play (docs/learning.md): self-play records from the
batched search, training a small network (PyTorch, the `nutcore[train]` extra), and the network
file the C++ searches read (evaluator="learned")."""
