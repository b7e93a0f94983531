"""The engine: runs the registered checks against a target and yields typed events."""
