"""Game review for people: ``patchwork review`` and the files it writes (a table and chart
in the terminal, JSON, a PNG chart, a self-contained HTML report). The judging itself is
``patchwork.ai.review``; this package only shows it."""
