"""Spanish 21's main wager (58 Pa. Code ch. 551), exactly: rules as data, the shoe, the engine."""
