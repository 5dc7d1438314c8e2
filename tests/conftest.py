import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import pytest


@pytest.fixture(scope="session")
def postgres_server():
    """One real PostgreSQL server for the whole test session (tests/postgres.py)."""
    from postgres import PostgresServer
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh, empty PostgreSQL database for one test."""
    return postgres_server.new_database()
