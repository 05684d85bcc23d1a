"""A real PostgreSQL server for the tests: initdb + pg_ctl in a temporary folder.

PostgreSQL refuses to run as root, so when the tests run as root (CI does) the server runs as
the unprivileged `postgres` user (created by the Debian package) through `runuser`. It
listens on a free loopback port with password (SCRAM) authentication, so the tests exercise
real credentials, and is stopped and removed at the end of the session. Each test gets its own
database. Outside CI, a machine without the server binaries skips these tests; in CI
(`CI=true`) their absence is a failure, not a skip.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest

PASSWORD = "pw-" + uuid.uuid4().hex  # a credential that must never appear in any output
USER = "moderator"
PG_WAIT_S = 300  # a guard against a server that never comes up or down, not a timing
PORT_TRIES = 5


def pg_bindir() -> Path | None:
    env = os.environ.get("MODERATOR_APP_PG_BIN")
    candidates = [env] if env else sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for c in candidates:
        if c and (Path(c) / "initdb").exists():
            return Path(c)
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def runuser() -> str | None:
    """`runuser`, which lives in root's folders (/usr/sbin, /sbin). Why not PATH alone: a
    CI runner's or `env -i`'s PATH may hold only the bin folders (QA session 11: with
    PATH=/usr/local/bin:/usr/bin:/bin every PostgreSQL test ERRORed with FileNotFoundError
    'runuser' at setup)."""
    return shutil.which("runuser") or shutil.which("runuser", path="/usr/sbin:/sbin")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """One server; `dsn(db)` is a full connection string (with the password)."""

    def __init__(self, bindir: Path) -> None:
        self.bin = bindir
        self.root = Path(tempfile.mkdtemp(prefix="moderator-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.runas = None
        self.runuser = runuser()
        if os.geteuid() == 0:
            self.runas = "postgres"
            pw = pwd.getpwnam(self.runas)
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        os.chmod(self.root, 0o700)

    def _run(self, *args: object) -> subprocess.CompletedProcess:
        cmd = [str(a) for a in args]
        if self.runas:
            cmd = [str(self.runuser), "-u", self.runas, "--", *cmd]
        return subprocess.run(cmd, check=True, capture_output=True, text=True,
                              timeout=PG_WAIT_S + 60)

    def init(self) -> None:
        pwfile = self.root / "pwfile"
        pwfile.write_text(PASSWORD + "\n")
        if self.runas:
            pw = pwd.getpwnam(self.runas)
            os.chown(pwfile, pw.pw_uid, pw.pw_gid)
        os.chmod(pwfile, 0o600)
        try:
            self._run(self.bin / "initdb", "-D", self.data, "-U", USER, "--pwfile", pwfile,
                      "-A", "scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync")
        finally:
            pwfile.unlink()
        with open(self.data / "postgresql.conf", "a") as fh:
            fh.write("listen_addresses = '127.0.0.1'\n"
                     f"unix_socket_directories = '{self.root}'\n"
                     "max_connections = 60\nshared_buffers = 16MB\nfsync = on\n")
            # the port last: a later line wins, so a retry on another port appends one
            fh.write(f"port = {self.port}\n")

    def start(self) -> None:
        """Start the server, on another free port when its own was taken meanwhile: the port
        is found free, then bound by the server a moment later, and another program (another
        test run on the same machine) may have bound it in between."""
        for _ in range(PORT_TRIES):
            try:
                self._pg_ctl("start", "-l", self.root / "log")
                return
            except subprocess.CalledProcessError:
                log = self.root / "log"
                taken = log.exists() and "could not bind" in log.read_text(errors="replace")
                if not taken:
                    raise
            self.port = _free_port()
            with open(self.data / "postgresql.conf", "a") as fh:
                fh.write(f"port = {self.port}\n")
            (self.root / "log").unlink(missing_ok=True)
        raise RuntimeError(f"no free port for PostgreSQL in {PORT_TRIES} tries")

    def stop(self, mode: str = "fast") -> None:
        self._pg_ctl("stop", "-m", mode)

    def _pg_ctl(self, action: str, *args: object) -> None:
        # -t: how long pg_ctl waits for the server; a hang guard (a loaded CI machine is slow
        # to start a server), not a timing.
        self._run(self.bin / "pg_ctl", "-D", self.data, *args, "-w", "-t", str(PG_WAIT_S),
                  action)

    def dsn(self, db: str = "postgres") -> str:
        return f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{self.port}/{db}"

    def create_db(self) -> str:
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return name

    def cleanup(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server():
    bindir = pg_bindir()
    if bindir is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL server binaries not found (CI installs `postgresql`)")
        pytest.skip("PostgreSQL server binaries not installed")
    if os.geteuid() == 0 and runuser() is None:  # root runs the server as `postgres` through it
        if os.environ.get("CI"):
            pytest.fail("runuser not found (util-linux): root cannot start PostgreSQL without it")
        pytest.skip("runuser not found: as root the server must run as `postgres` through it")
    server = PgServer(bindir)
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.cleanup()


@pytest.fixture
def pg_dsn(pg_server) -> str:
    """A connection string to a fresh, empty database of the session's server."""
    return pg_server.dsn(pg_server.create_db())
