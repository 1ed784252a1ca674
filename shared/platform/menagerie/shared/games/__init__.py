"""Hosting a game engine behind its typed gRPC service and the generic Matches service."""
