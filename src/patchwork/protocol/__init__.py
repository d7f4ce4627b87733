"""Let any program play, and play any program: the text engine protocol (``patchwork
engine`` and :class:`Engine` to drive other engines) and the CodinGame bot host and bot."""

from .client import Analysis, AnalysisStream, Engine, EngineError, Shown
from .engine_protocol import Info, OptionSpec, ProtocolError

__all__ = [
    "Analysis", "AnalysisStream", "Engine", "EngineError", "Info", "OptionSpec", "ProtocolError",
    "Shown",
]  # fmt: skip
