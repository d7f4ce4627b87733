"""The guided first game on the server (docs/server.md, "Tutorial"): the lesson a learner's
progress stands at, a move tried there, and the finished game stored for its first review.
The lessons are the course's (``patchwork.tutorial``); the server keeps no progress."""
