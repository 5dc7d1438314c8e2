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


@pytest.fixture
def server_log():
    """The server's JSON log lines at INFO while the test runs, as a StringIO (the handler is removed after)."""
    import io
    import logging

    from server.main import JsonFormatter

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("spellbook.server")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
