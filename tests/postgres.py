"""A real PostgreSQL server for the tests, from the binaries the `pgserver` wheel ships (a dev dependency,
so `make test` installs it; no system package needed).

One server per test session: initdb into a fresh temporary folder, `postgres` started directly (its pid is
ours), listening on 127.0.0.1 at a free port and on a unix socket in that folder; stopped by its pid
(SIGINT: fast shutdown) and the folder removed at the end. PostgreSQL refuses to run as root, so under
root it runs as `nobody`. Durability is traded for speed (fsync off): the data is thrown away anyway.
"""
from __future__ import annotations

import importlib.util
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def _bin_dir(user: str | None) -> Path:
    """The wheel's bin/ folder; for another `user` (root runs PostgreSQL as nobody), a copy in /tmp when
    the installed one sits under a folder that user may not enter (a checkout under /root, say)."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the pgserver package (PostgreSQL binaries) is missing: run `make install`")
    package = Path(spec.submodule_search_locations[0])
    install = package / "pginstall"
    if user is None or all(p.stat().st_mode & 0o001 for p in install.parents):
        return install / "bin"
    # the binaries find their libraries at $ORIGIN/../../../pgserver.libs: copy both, keeping that layout
    copy = Path(tempfile.gettempdir()) / f"spellbook-pgserver-{install.stat().st_ino}"
    if not (copy / "pgserver" / "pginstall" / "bin" / "postgres").exists():
        staging = Path(tempfile.mkdtemp(prefix="spellbook-pgserver-"))
        shutil.copytree(install, staging / "tree" / "pgserver" / "pginstall", symlinks=True)
        libs = package.parent / "pgserver.libs"
        if libs.is_dir():
            shutil.copytree(libs, staging / "tree" / "pgserver.libs", symlinks=True)
        for d in [staging / "tree", *(staging / "tree").rglob("*")]:
            if d.is_dir():
                d.chmod(0o755)
        try:
            os.rename(staging / "tree", copy)
        except OSError:          # another test session made it first
            pass
        shutil.rmtree(staging, ignore_errors=True)
    return copy / "pgserver" / "pginstall" / "bin"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    def __init__(self):
        self.user = "nobody" if os.geteuid() == 0 else None
        self.bin = _bin_dir(self.user)
        self.dir = Path(tempfile.mkdtemp(prefix="spellbook-pg-"))
        self.port = _free_port()
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        self.proc: subprocess.Popen | None = None

    def _run_as(self) -> dict:
        return {"user": self.user, "group": pwd.getpwnam(self.user).pw_gid, "extra_groups": []} if self.user else {}

    def start(self) -> "PostgresServer":
        data = self.dir / "data"
        out = subprocess.run([str(self.bin / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                              "--no-sync", "-E", "UTF8", "--locale=C"],
                             capture_output=True, text=True, timeout=120, **self._run_as())
        if out.returncode != 0:
            raise RuntimeError(f"initdb failed: {out.stderr[-2000:]}")
        log = open(self.dir / "postgres.log", "w")
        self.proc = subprocess.Popen(
            [str(self.bin / "postgres"), "-D", str(data), "-h", "127.0.0.1", "-p", str(self.port),
             "-k", str(self.dir), "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_connections=100", "-c", "shared_buffers=16MB"],
            stdout=log, stderr=subprocess.STDOUT, **self._run_as())
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"postgres exited: {(self.dir / 'postgres.log').read_text()[-2000:]}")
            ready = subprocess.run([str(self.bin / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port), "-q"],
                                   timeout=10)
            if ready.returncode == 0:
                return self
            time.sleep(0.1)
        raise RuntimeError("postgres did not become ready in 60 s")

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def new_database(self) -> str:
        """A fresh empty database; returns its URL."""
        import psycopg
        name = "t_" + secrets.token_hex(6)
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)      # fast shutdown: ends the sessions, exits
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)
