"""The gRPC service (issue 4)."""
