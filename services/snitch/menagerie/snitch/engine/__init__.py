"""The rules of Catch the Golden Snitch."""
