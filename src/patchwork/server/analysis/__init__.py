"""The analysis board (docs/server.md, "Analysis board"): any position played forward by
hand for both sides, and the searcher's view of it streamed while it searches."""
