"""Re-solving subgames of a blueprint with a gadget (the safe and unsafe re-solves)."""
