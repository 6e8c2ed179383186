"""The shared rules engine: one module per game over the primitives in `engine.dice`.

Every function is pure: state goes in as small dataclasses or plain data, results come out the same way,
and randomness is a `Roller` passed in, so every ruling can be replayed exactly in a test. A game's module
declares its slug (`GAME = "dragon-dice"`); `engine.registry` discovers the games, here and in installed plugin
packages, and finds the modules by name (for scenarios and calculators); nothing here imports from the layers
above.
"""
