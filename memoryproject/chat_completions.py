"""The one client of OpenAI-compatible chat endpoints (`POST {base_url}/chat/completions`), for
every model the project asks: the summarizer, the knowledge extractor, the ingestion extractor.

Timeouts on every call; a refused connection, a timeout, a 429 or a 5xx is tried again a bounded
number of times with a short backoff; anything else fails at once. Callers turn `ChatFailed` (could
not ask) and `ChatAnswerInvalid` (asked, but the answer is no answer) into their own errors."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import httpx

RETRY_STATUSES = {408, 409, 429, 500, 502, 503, 504}
BACKOFF_SECONDS = 0.5


class ChatFailed(Exception):
    """The endpoint could not be asked: unreachable, timed out, or an HTTP error."""


class ChatAnswerInvalid(ChatFailed):
    """The endpoint answered, but not with a chat completion (or, asked for JSON, not JSON)."""


@dataclass(frozen=True)
class ChatEndpoint:
    base_url: str  # the /v1 base, e.g. https://host/v1
    model: str
    api_key: str = ""
    timeout: float = 60.0
    retries: int = 2  # tries after the first

    @property
    def url(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"


def chat_complete(
    endpoint: ChatEndpoint,
    *,
    system: str,
    user: str,
    schema: dict | None = None,
    schema_name: str = "answer",
) -> str:
    """The model's answer (the first choice's content) to one system and one user message, at
    temperature 0; with `schema`, the answer is asked for as strict JSON of that schema."""
    if not endpoint.base_url:
        raise ChatFailed("no endpoint URL is set")
    body: dict[str, Any] = {
        "model": endpoint.model,
        "temperature": 0,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
    }
    if schema is not None:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": schema_name, "strict": True, "schema": schema},
        }
    headers = {"Authorization": f"Bearer {endpoint.api_key}"} if endpoint.api_key else {}
    answer = _post(endpoint, body, headers)
    try:
        content = answer["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as exc:
        raise ChatAnswerInvalid(f"the answer is not a chat completion: {exc!r:.200}") from None
    if not isinstance(content, str):
        raise ChatAnswerInvalid("the answer's content is not text")
    return content


def chat_complete_json(endpoint: ChatEndpoint, *, system: str, user: str, schema: dict,
                       schema_name: str = "answer") -> Any:  # fmt: skip
    """`chat_complete` with a strict JSON schema, the answer parsed (not yet checked: the
    caller checks it against what it needs)."""
    content = chat_complete(endpoint, system=system, user=user, schema=schema,
                            schema_name=schema_name)  # fmt: skip
    try:
        return json.loads(content)
    except ValueError as exc:
        raise ChatAnswerInvalid(f"the answer is not JSON: {exc}") from None


def _post(endpoint: ChatEndpoint, body: dict, headers: dict) -> Any:
    for attempt in range(endpoint.retries + 1):
        last = attempt == endpoint.retries
        try:
            response = httpx.post(endpoint.url, json=body, headers=headers,
                                  timeout=endpoint.timeout)  # fmt: skip
        except httpx.TransportError as exc:
            if last:
                raise ChatFailed(f"{type(exc).__name__}: {exc}") from None
        else:
            if response.status_code in RETRY_STATUSES and not last:
                pass
            elif response.is_error:
                raise ChatFailed(f"HTTP {response.status_code} from the endpoint")
            else:
                try:
                    return response.json()
                except ValueError:
                    raise ChatAnswerInvalid("the endpoint's answer is not JSON") from None
        time.sleep(BACKOFF_SECONDS * 2**attempt)
    raise ChatFailed("no answer")  # not reached: the last attempt returns or raises
