"""The pairing both kinds of event share: the matching of the most pairs whose costs add up
to the least, as networkx's maximum-weight matching finds it (each pair weighs ``base - cost``,
``base`` above every cost, and the cardinality is maximal first).

networkx is imported at the first pairing, not with the server: it is a few tenths of a second
of every start."""

from __future__ import annotations

from collections.abc import Iterable

Costs = dict[tuple[int, int], int]  # (vertex, vertex) -> what pairing them costs
# The vertex of nobody: a player paired with it is the one left over (a Swiss bye, an arena's
# wait). Below every player's index, so it is first in its pair.
NOBODY = -1


def cheapest_pairs(vertices: Iterable[int], costs: Costs) -> list[tuple[int, int]]:
    """The pairs of the matching, each (lower vertex, higher vertex), sorted; vertices
    without an edge, or left over, are in none."""
    import networkx as nx

    base = max(costs.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(vertices)
    for (u, v), cost in costs.items():
        graph.add_edge(u, v, weight=base - cost)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(u, v), max(u, v)) for u, v in matching)
