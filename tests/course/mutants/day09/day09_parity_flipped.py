"""Mutant: predictions with the parity flipped -- odd limits land softly, even ones raise."""


def predictions():
    return {
        2: ("error", 0),
        3: ("sorry", 1),
        4: ("error", 1),
        5: ("sorry", 2),
        6: ("error", 2),
        7: ("sorry", 3),
    }
