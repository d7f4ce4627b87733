"""Ratings (docs/accounts.md, "Ratings"): Glicko-2, rating a finished game once, the AI
levels' fixed ratings, histories, profiles, the leaderboard and rating charts."""
