"""game/builtin"""
