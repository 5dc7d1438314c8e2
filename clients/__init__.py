"""The clients, for every game: the command line (`spellbook-ai`: the terminal games, demo, review, analysis
engine, tournaments and ladder, self-play and training), the gRPC clients (client.py), remote bots and the
OpenSpiel adapters."""
