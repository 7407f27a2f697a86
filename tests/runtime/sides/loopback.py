"""A Chat Completions server on 127.0.0.1 for tests and notebooks: records request bodies, replays a script.

``LoopbackServer`` listens on a real socket (an ephemeral port on the loopback interface only),
serves ``POST .../chat/completions`` from a thread, and answers each request with the next
scripted ``Reply``: a JSON body, a server-sent-events stream, raw bytes, an HTTP error
(``Reply.error``, ``Reply.context_overflow``), or a delay (for timeouts). Every request body is
kept, parsed, in ``bodies``. ``closed_port_url()`` is a base URL where nothing listens (a
connection error).

    with LoopbackServer([Reply.json(completion("hi"))]) as server:
        ChatOpenAI(base_url=server.base_url, api_key="sk-test", max_retries=0).invoke("hi")
        server.bodies  # [{"model": ..., "messages": [...], ...}]
"""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted answer."""

    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    events: list[dict[str, Any]] = field(default_factory=list)  # SSE chunks, if streamed
    delay: float = 0.0

    @classmethod
    def json(cls, payload: dict[str, Any], status: int = 200) -> Reply:
        return cls(status=status, body=json.dumps(payload).encode())

    @classmethod
    def sse(cls, chunks: list[dict[str, Any]]) -> Reply:
        return cls(content_type="text/event-stream", events=chunks)

    @classmethod
    def error(
        cls,
        status: int,
        message: str,
        *,
        type: str = "test_error",  # noqa: A002 (the field's name in the API's error body)
        param: str | None = None,
        code: str | None = None,
    ) -> Reply:
        error = {"message": message, "type": type, "param": param, "code": code}
        return cls(status=status, body=json.dumps({"error": error}).encode())

    @classmethod
    def context_overflow(cls, message: str | None = None) -> Reply:
        """OpenAI's 400 for too long an input, ``code: "context_length_exceeded"``.

        langchain-openai 1.7.4 reads a 400 as a context overflow by its text
        (``_handle_openai_bad_request``: ``"context_length_exceeded" in str(e)``, or the message
        says ``Input tokens exceed the configured limit``, ``prompt is too long``...). The
        ``openai`` SDK 3.57 puts only ``error.message`` in that text, not the code, so the
        default message is one the check recognises; pass the older "maximum context length"
        message to see a 400 that is read as a plain invalid request.
        """
        message = message or (
            "Input tokens exceed the configured limit of 272000 tokens. Your messages resulted "
            "in 301442 tokens. Please reduce the length of the messages."
        )
        return cls.error(
            400,
            message,
            type="invalid_request_error",
            param="messages",
            code="context_length_exceeded",
        )


def completion(
    content: str | None = "",
    tool_calls: list[dict[str, Any]] | None = None,
    *,
    usage: tuple[int, int] = (10, 5),
    model: str = "loop-model",
    finish_reason: str | None = None,
) -> dict[str, Any]:
    """A ``chat.completion`` body; ``tool_calls`` as ``[(id, name, arguments_json), ...]``."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [
            {"id": id_, "type": "function", "function": {"name": name, "arguments": args}}
            for id_, name, args in tool_calls
        ]
    return {
        "id": "chatcmpl-loop",
        "object": "chat.completion",
        "created": 1700000000,
        "model": model,
        "system_fingerprint": "fp_loop",
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": finish_reason or ("tool_calls" if tool_calls else "stop"),
            }
        ],
        "usage": {
            "prompt_tokens": usage[0],
            "completion_tokens": usage[1],
            "total_tokens": sum(usage),
        },
    }


def chunk(
    delta: dict[str, Any] | None = None,
    *,
    finish_reason: str | None = None,
    usage: tuple[int, int] | None = None,
    choices: bool = True,
    model: str = "loop-model",
) -> dict[str, Any]:
    """A ``chat.completion.chunk``; ``choices=False`` gives the final usage-only chunk."""
    out: dict[str, Any] = {
        "id": "chatcmpl-loop",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": model,
        "system_fingerprint": "fp_loop",
        "choices": (
            [{"index": 0, "delta": delta or {}, "logprobs": None, "finish_reason": finish_reason}]
            if choices
            else []
        ),
    }
    if usage is not None:
        out["usage"] = {
            "prompt_tokens": usage[0],
            "completion_tokens": usage[1],
            "total_tokens": sum(usage),
        }
    return out


def streamed_tool_call_chunks(
    calls: list[tuple[str, str, str]], content: str = ""
) -> list[dict[str, Any]]:
    """The chunks of a reply with ``content`` and ``calls``, arguments split in two pieces."""
    chunks = [chunk({"role": "assistant", "content": content or None})]
    for index, (id_, name, args) in enumerate(calls):
        half = len(args) // 2
        first = {"index": index, "id": id_, "type": "function"}
        first["function"] = {"name": name, "arguments": args[:half]}
        chunks.append(chunk({"tool_calls": [first]}))
        rest = {"index": index, "function": {"arguments": args[half:]}}
        chunks.append(chunk({"tool_calls": [rest]}))
    chunks.append(chunk({}, finish_reason="tool_calls" if calls else "stop"))
    return chunks


class LoopbackServer:
    """Serve scripted replies on ``http://127.0.0.1:<port>/v1``; record every request body."""

    def __init__(self, replies: list[Reply] | None = None) -> None:
        self.replies = list(replies or [])
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server spelling)
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                with server._lock:
                    server.paths.append(self.path)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    server.bodies.append(json.loads(raw))
                    reply = server.replies.pop(0) if server.replies else Reply.error(500, "empty")
                if reply.delay:
                    time.sleep(reply.delay)
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", reply.content_type)
                    if reply.events:
                        self.end_headers()
                        for event in reply.events:
                            self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                            self.wfile.flush()
                        self.wfile.write(b"data: [DONE]\n\n")
                    else:
                        self.send_header("content-length", str(len(reply.body)))
                        self.end_headers()
                        self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self.replies.extend(replies)

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def closed_port_url() -> str:
    """A ``base_url`` on 127.0.0.1 where nothing listens: a request gets a connection error."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
