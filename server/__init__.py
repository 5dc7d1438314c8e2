"""The server: one gRPC server (and its Connect gateway and page, server/web.py) for every game of
engine_c/registry.py, with sessions, credentials, fair share, deadlines and metrics (server/main.py)."""
