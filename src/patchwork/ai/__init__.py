"""Players that are not people: agents, search and analysis."""

from .agents import Agent, GreedyAgent, RandomAgent
from .analysis import analyse
from .levels import level
from .limit import Limit
from .policy_agent import PolicyAgent
from .registry import agent_names, get_agent
from .search import Candidate, MCTSAgent, SearchResult

__all__ = [
    "Agent",
    "Candidate",
    "GreedyAgent",
    "Limit",
    "MCTSAgent",
    "PolicyAgent",
    "RandomAgent",
    "SearchResult",
    "agent_names",
    "analyse",
    "get_agent",
    "level",
]
