"""What each spell does, in a player's words: the text lives with the game (engine_c/spellbook/spell_text.py),
where the service's page finds it too; the terminal keeps importing it from here."""
from engine_c.spellbook.spell_text import (PHASE_NAMES, SPELL_TEXT, _TABLE, describe, find_spell,  # noqa: F401
                                           points, spell_title)
