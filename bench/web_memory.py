"""Memory of the idle web process: starts uvicorn on the project's ASGI app as `make run` does
(bin/run-local: one process, Django and /mcp), asks /api/v1/health until it answers (401 without
a key), lets it idle, then prints the process's resident and peak memory (VmRSS, VmHWM) and
whether spaCy or torch is mapped into it (the web never loads spaCy).

    .venv/bin/python bench/web_memory.py [--port 8765] [--idle 5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def status(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) // 1024  # kB -> MiB
    return fields


def mapped(pid: int, word: str) -> bool:
    return any(word in line for line in Path(f"/proc/{pid}/maps").read_text().splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds idle before measuring")
    args = parser.parse_args()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "memoryproject.settings"}
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "memoryproject.asgi:application", "--host", "127.0.0.1",
         "--port", str(args.port), "--workers", "1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{args.port}/api/v1/health") as r:
                    code = r.status
                break
            except urllib.error.HTTPError as answer:  # 401 without a key: it answers
                code = answer.code
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    sys.exit("uvicorn did not answer")
                time.sleep(0.5)
        time.sleep(args.idle)
        worker = server.pid  # uvicorn with one worker serves in the process it starts
        memory = status(worker)
        print(f"health: {code}")
        print(f"idle web process: RSS {memory['VmRSS']} MiB, peak {memory['VmHWM']} MiB")
        print(f"spacy mapped: {mapped(worker, 'spacy')}, torch mapped: {mapped(worker, 'torch')}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
