"""Lua scripts of the lobby: each changes tickets atomically."""
