"""Generated from proto/ by `make proto` (server/protogen.py). Do not edit."""
