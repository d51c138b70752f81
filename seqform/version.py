"""The package version, in one place (read by the CLI's --version)."""

__version__ = "0.1.0"
