"""The local Neo4j 2026.01 community with OpenGDS that the project starts itself, from Maven
Central's jars.

No Neo4j package exists on PyPI, apt or npm here, so Maven fetches `org.neo4j:neo4j`,
`org.neo4j:neo4j-bolt` and OpenGDS (`org.neo4j.gds:*`) into a cache folder outside git, and a small
launcher of ours (launcher/src/LocalNeo4j.java) runs the embedded DBMS on a Java 21+ (see
java_runtime) with Bolt only, on 127.0.0.1, auth on, and a password generated once and kept in the
project's data folder. GDS registers its procedures only from jars in the plugin directory, so
that folder holds links to the `proc*` jars.
"""

from __future__ import annotations

import json
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

from apps.graph.java_runtime import Java, JavaError, java_choose, javac_for

NEO4J_VERSION = "2026.01.4"
GDS_VERSION = "2.26.0"
# Each start writes this next to the data; a store without it (or of another major line) was
# written by the Neo4j 5.26 this project ran before and is refused (see store_check).
STORE_MARKER = "anamnesis-engine"
LAUNCHER_DIR = Path(__file__).resolve().parent / "launcher"
# The JVM flags Neo4j's own neo4j.conf sets: without them it fails or vector index population stalls.
JVM_FLAGS = [
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
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
    java: str = ""
    vectorized: bool | None = None
    gds: str = ""


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
    """Fetch Neo4j's and OpenGDS's jars with Maven once; later calls find them in the cache."""
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
        f"-Dneo4j.version={NEO4J_VERSION}", f"-Dgds.version={GDS_VERSION}",
    ]  # fmt: skip
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise LocalNeo4jError(f"Maven could not fetch Neo4j:\n{result.stdout}\n{result.stderr}")
    marker.write_text(NEO4J_VERSION)
    return target


def plugins_dir() -> Path:
    """Links to GDS's procedure jars: Neo4j registers procedures only from its plugin folder."""
    target = _root() / "plugins"
    target.mkdir(parents=True, exist_ok=True)
    for jar in jars_dir().glob("proc-*.jar"):
        link = target / jar.name
        if not link.exists():
            link.unlink(missing_ok=True)  # a dangling link of a moved cache
            link.symlink_to(jar)
    return target


def compile_launcher(java: Java) -> Path:
    source = LAUNCHER_DIR / "src" / "LocalNeo4j.java"
    classes = _root() / "classes"
    compiled = classes / "LocalNeo4j.class"
    if compiled.exists() and compiled.stat().st_mtime >= source.stat().st_mtime:
        return classes
    classes.mkdir(parents=True, exist_ok=True)
    try:
        javac = javac_for(java)
    except JavaError as exc:
        raise LocalNeo4jError(str(exc)) from exc
    result = subprocess.run(
        [*javac, "-d", str(classes), str(source)], capture_output=True, text=True
    )
    if result.returncode != 0:
        raise LocalNeo4jError(f"javac failed:\n{result.stderr}")
    return classes


def _conf_write(home: Path, port: int) -> Path:
    """The DBMS's settings: Bolt alone on loopback (several instances share this machine, so no
    other listening port), auth on, the plugin folder, GDS's procedures unrestricted."""
    conf = _root() / "neo4j.conf"
    lines = {
        "server.bolt.enabled": "true",
        "server.bolt.listen_address": f"127.0.0.1:{port}",
        "server.bolt.advertised_address": f"127.0.0.1:{port}",
        "server.http.enabled": "false",
        "server.https.enabled": "false",
        "dbms.security.auth_enabled": "true",
        "server.memory.pagecache.size": f"{settings.NEO4J_LOCAL_PAGECACHE_MB}m",
        "server.directories.plugins": str(plugins_dir()),
        "dbms.security.procedures.unrestricted": "gds.*",
        "dbms.usage_report.enabled": "false",
        # Transaction logs grow as written: preallocated, each database holds 256 MiB from
        # its start, and the tests start a second DBMS (0.5 GB a DBMS, on CI's small disks).
        "db.tx_log.preallocate": "false",
    }
    conf.write_text("".join(f"{key}={value}\n" for key, value in lines.items()))
    return conf


def store_check(home: Path) -> None:
    """Refuse a store written by the Neo4j 5.26 this project ran before 2026.01: this engine
    would upgrade it in place, one way, with no copy to go back to."""
    data = home / "data" / "databases"
    marker = home / STORE_MARKER
    if data.exists() and not marker.exists():
        raise LocalNeo4jError(
            f"The graph in {home} was written by Neo4j 5.26; this project now runs Neo4j "
            f"{NEO4J_VERSION}, which would upgrade it one way. Data you can rebuild (tests, demos): "
            f"remove {home} and start again. Data to keep: see the README's Neo4j section."
        )
    marker.write_text(NEO4J_VERSION)


def _engine_file() -> Path:
    return _root() / "engine.json"


def status() -> LocalNeo4jStatus:
    home = _root() / "home"
    pid = _read_pid()
    running = pid is not None and _port_open(settings.NEO4J_LOCAL_PORT)
    engine = {}
    if running:
        try:
            engine = json.loads(_engine_file().read_text())
        except (OSError, ValueError):
            engine = {}
    return LocalNeo4jStatus(
        running=running,
        pid=pid,
        bolt_url=bolt_url(),
        home=str(home),
        data_dir=str(home / "data"),
        logs_dir=str(home / "logs"),
        launcher_log=str(_launcher_log()),
        jars_dir=str(jars_dir()),
        version=NEO4J_VERSION,
        java=engine.get("java", ""),
        vectorized=engine.get("vectorized"),
        gds=engine.get("gds", ""),
    )


def start(timeout: float = 600.0) -> LocalNeo4jStatus:
    """Start the local Neo4j if it is not running; returns once Bolt accepts connections.
    About 20 s on an idle 2-core machine; several minutes when other work holds the cores."""
    current = status()
    if current.running:
        return current
    port = settings.NEO4J_LOCAL_PORT
    if _port_open(port):
        raise LocalNeo4jError(
            f"Port {port} is taken by another process; set NEO4J_LOCAL_PORT or NEO4J_BOLT_URL."
        )
    try:
        java = java_choose()
    except JavaError as exc:
        raise LocalNeo4jError(str(exc)) from exc
    fetch_jars()
    classes = compile_launcher(java)
    home = _root() / "home"
    home.mkdir(parents=True, exist_ok=True)
    store_check(home)
    conf = _conf_write(home, port)
    local_password()
    cmd = [
        java.executable, f"-Xmx{settings.NEO4J_LOCAL_HEAP}", f"-Xms{settings.NEO4J_LOCAL_HEAP}",
        *JVM_FLAGS, *java.flags(),
        "-cp", f"{classes}:{jars_dir()}/*", "LocalNeo4j", str(home), str(conf), str(password_file()),
    ]  # fmt: skip
    # Only this start's output counts: lines of earlier starts are before `offset`.
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
        out = _launcher_log().read_bytes()[offset:].decode(errors="replace")
        if _port_open(port) and "\nREADY" in "\n" + out:
            _engine_file().write_text(json.dumps(_engine_facts(java, out)))
            return status()
        time.sleep(0.5)
    raise LocalNeo4jError(f"Neo4j did not start within {timeout:.0f}s; see {_launcher_log()}")


def _engine_facts(java: Java, out: str) -> dict:
    facts = {"java": f"{java.version} ({java.source}: {java.home})", "vectorized": False}
    for line in out.splitlines():
        if line.startswith("VECTORIZED "):
            facts["vectorized"] = line.split()[1] == "true"
        elif line.startswith("GDS "):
            facts["gds"] = line[4:].strip()
    return facts


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
