"""One fake OpenAI-compatible chat endpoint for the tests (the `chat_server` fixture): it keeps
every request and answers from a queue, then with a default answer, with a chosen status."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeChatServer:
    """`url` is the /v1 base. `answers` are used first, in order; then `answer`. A str is sent
    as the content as it is, anything else as its JSON. `status` is the HTTP status of the
    replies; `failures` replies that many times with 503 first (to see retries)."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.answers: list = []
        self.answer: object = ""
        self.status = 200
        self.failures = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "body": body,
                                        "auth": self.headers.get("Authorization")})  # fmt: skip
                status = server.status
                if server.failures > 0:
                    server.failures -= 1
                    status = 503
                answer = server.answers.pop(0) if server.answers else server.answer
                content = answer if isinstance(answer, str) else json.dumps(answer)
                data = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._http.server_port}/v1"
        threading.Thread(target=self._http.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._http.shutdown()
        self._http.server_close()
