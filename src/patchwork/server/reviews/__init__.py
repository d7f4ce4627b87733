"""Game reviews on the server: every move of a finished game judged by the searcher in the
AI pool, with progress, stored once."""
