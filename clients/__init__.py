"""Clients of the SpellBook AI: the command line (`spellbook-ai`), and later the gRPC client and tournaments."""
