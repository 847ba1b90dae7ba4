"""The local Neo4j 5.26 community that the project starts itself, from Maven Central's jars.

No Neo4j package exists on PyPI, apt or npm here, so Maven fetches `org.neo4j:neo4j` and
`org.neo4j:neo4j-bolt` into a cache folder outside git and a small launcher of ours
(launcher/src/LocalNeo4j.java) runs the embedded DBMS with Bolt on 127.0.0.1, auth on, and a
password generated once and kept in the project's data folder.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from django.conf import settings

NEO4J_VERSION = "5.26.30"
LAUNCHER_DIR = Path(__file__).resolve().parent / "launcher"
# The JVM flags Neo4j's own neo4j.conf sets: without them it fails or vector index population stalls.
JVM_FLAGS = [
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dlog4j2.disable.jmx=true",
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+DisableExplicitGC",
    # Neo4j's own performance defaults: heap touched once at start, final fields trusted by JIT.
    "-XX:+AlwaysPreTouch",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
]


class LocalNeo4jError(RuntimeError):
    pass


@dataclass(frozen=True)
class LocalNeo4jStatus:
    running: bool
    pid: int | None
    bolt_url: str
    home: str
    data_dir: str
    logs_dir: str
    launcher_log: str
    jars_dir: str
    version: str


def _root() -> Path:
    return Path(settings.NEO4J_LOCAL_DIR)


def jars_dir() -> Path:
    # Shared by every clone on the machine: the jars are the same, only the data differs.
    default = Path.home() / ".cache" / "anamnesis" / f"neo4j-{NEO4J_VERSION}" / "lib"
    return Path(os.environ.get("NEO4J_JARS_DIR", default))


def password_file() -> Path:
    return _root() / "password"


def local_password() -> str:
    path = password_file()
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(24))
        path.chmod(0o600)
    return path.read_text().strip()


def bolt_url() -> str:
    return f"bolt://127.0.0.1:{settings.NEO4J_LOCAL_PORT}"


def _pid_file() -> Path:
    return _root() / "neo4j.pid"


def _launcher_log() -> Path:
    return _root() / "launcher.log"


def _read_pid() -> int | None:
    try:
        pid = int(_pid_file().read_text().strip())
    except (FileNotFoundError, ValueError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return pid
    return pid


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def fetch_jars() -> Path:
    """Fetch Neo4j's jars with Maven once; later calls find them in the cache folder."""
    target = jars_dir()
    marker = target / ".complete"
    if marker.exists():
        return target
    if not shutil.which("mvn"):
        raise LocalNeo4jError("Maven (mvn) is needed once to fetch Neo4j's jars; install maven.")
    target.mkdir(parents=True, exist_ok=True)
    cmd = [
        "mvn", "-q", "-B", "-f", str(LAUNCHER_DIR / "pom.xml"),
        "dependency:copy-dependencies", f"-DoutputDirectory={target}",
        f"-Dneo4j.version={NEO4J_VERSION}",
    ]  # fmt: skip
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise LocalNeo4jError(f"Maven could not fetch Neo4j:\n{result.stdout}\n{result.stderr}")
    marker.write_text(NEO4J_VERSION)
    return target


def compile_launcher() -> Path:
    source = LAUNCHER_DIR / "src" / "LocalNeo4j.java"
    classes = _root() / "classes"
    compiled = classes / "LocalNeo4j.class"
    if compiled.exists() and compiled.stat().st_mtime >= source.stat().st_mtime:
        return classes
    classes.mkdir(parents=True, exist_ok=True)
    cmd = ["javac", "-cp", f"{jars_dir()}/*", "-d", str(classes), str(source)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise LocalNeo4jError(f"javac failed:\n{result.stderr}")
    return classes


def status() -> LocalNeo4jStatus:
    home = _root() / "home"
    pid = _read_pid()
    return LocalNeo4jStatus(
        running=pid is not None and _port_open(settings.NEO4J_LOCAL_PORT),
        pid=pid,
        bolt_url=bolt_url(),
        home=str(home),
        data_dir=str(home / "data"),
        logs_dir=str(home / "logs"),
        launcher_log=str(_launcher_log()),
        jars_dir=str(jars_dir()),
        version=NEO4J_VERSION,
    )


def start(timeout: float = 180.0) -> LocalNeo4jStatus:
    """Start the local Neo4j if it is not running; returns once Bolt accepts connections."""
    current = status()
    if current.running:
        return current
    port = settings.NEO4J_LOCAL_PORT
    if _port_open(port):
        raise LocalNeo4jError(
            f"Port {port} is taken by another process; set NEO4J_LOCAL_PORT or NEO4J_BOLT_URL."
        )
    fetch_jars()
    classes = compile_launcher()
    home = _root() / "home"
    home.mkdir(parents=True, exist_ok=True)
    local_password()
    cmd = [
        "java", f"-Xmx{settings.NEO4J_LOCAL_HEAP}", f"-Xms{settings.NEO4J_LOCAL_HEAP}", *JVM_FLAGS,
        "-cp", f"{classes}:{jars_dir()}/*", "LocalNeo4j",
        str(home), str(port), str(password_file()), str(settings.NEO4J_LOCAL_PAGECACHE_MB),
    ]  # fmt: skip
    # Only this start's output counts: READY lines of earlier starts are before `offset`.
    offset = _launcher_log().stat().st_size if _launcher_log().exists() else 0
    log = open(_launcher_log(), "ab")  # noqa: SIM115 - handed to the child process
    proc = subprocess.Popen(
        cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
    )
    _pid_file().write_text(str(proc.pid))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise LocalNeo4jError(
                f"Neo4j exited with code {proc.returncode}; see {_launcher_log()}"
            )
        if _port_open(port) and b"READY" in _launcher_log().read_bytes()[offset:]:
            return status()
        time.sleep(0.5)
    raise LocalNeo4jError(f"Neo4j did not start within {timeout:.0f}s; see {_launcher_log()}")


def stop(timeout: float = 60.0) -> bool:
    """Stop the local Neo4j cleanly (SIGTERM runs its shutdown hook). Returns whether it ran."""
    pid = _read_pid()
    if pid is None:
        return False
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        _reap(pid)
        time.sleep(0.3)
    else:
        os.kill(pid, signal.SIGKILL)
    _pid_file().unlink(missing_ok=True)
    return True


def _reap(pid: int) -> None:
    # When this process started Neo4j itself, collect the child so it does not linger as a zombie.
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def status_dict() -> dict:
    return asdict(status())
