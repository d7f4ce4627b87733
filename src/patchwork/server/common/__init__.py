"""What every part of the server shares: its settings, the errors a client can cause, the
limits on what a client may send, rate limits, token hashes and background tasks."""
