"""Insights writes nothing to the graph but its stored communities (apps/insights/communities.py):
its other answers are reads, kept in Django's cache (apps/insights/kept_answers.py) under the
tenant's graph version, which every memory app raises and which therefore lives in the ground
layer (apps/graph/graph_version.py)."""
