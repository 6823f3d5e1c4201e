"""One exact blackjack engine: standard blackjack and Spanish 21 (58 Pa. Code ch. 551) are presets of it."""
