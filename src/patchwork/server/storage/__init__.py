"""The database: its tables, the repository of games (every read and write of them, run off
the event loop), and the Alembic migrations run at start-up."""
