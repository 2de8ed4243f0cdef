"""`nyaya serve`: lookup, verify and search over HTTP, for programs that ask many times.

Tables, models and the store are loaded once when the server starts (a `nyaya verify` call
pays that loading every time). Each endpoint answers the JSON its command prints with
`--json`:

    GET  /health                                         {"status": "ok", ...}
    POST /lookup  {"citation": "BNS 103"}                 nyaya lookup --json
    POST /verify  {"text": ..., "as_of": "YYYY-MM-DD", "query": ...}   nyaya verify --json
    POST /search  {"q": ..., "side", "config", "k", "as_of", "verify"}  nyaya search --json

A body is a JSON object of at most `MAX_BODY` bytes; anything else is a 4xx with
{"error": "..."} saying what is wrong. Searches run one at a time (the embedder and the
store's shards are shared); lookups and verifications run on every request thread.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from datetime import date
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from evals.search import Searcher, SearchError
from nyaya.cli import Verifier, load_lookup
from nyaya.settings import Settings
from nyaya.verify.gate import TextTooLong

MAX_BODY = 1 << 20  # 1 MiB: a long answer to verify is ~50 KB
DRAINED = 8 * MAX_BODY  # an oversized body up to this is read and dropped before the 413
log = logging.getLogger("nyaya.serve")


class RequestError(ValueError):
    """A request the server refuses, with its HTTP status."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


def _field(body: dict, name: str, kind: type, required: bool = False) -> Any:
    value = body.get(name)
    if value is None:
        if required:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"missing field {name!r}")
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RequestError(HTTPStatus.BAD_REQUEST,
                           f"field {name!r} must be {kind.__name__}, got {type(value).__name__}")
    return value


def _date(body: dict) -> date | None:
    value = _field(body, "as_of", str)
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        raise RequestError(HTTPStatus.BAD_REQUEST,
                           f"as_of {value!r} is not a YYYY-MM-DD date") from None


class Service:
    """The three answers, over what was loaded at start."""

    def __init__(self, settings: Settings,
                 judge: Callable[[Settings], object] | None = None) -> None:
        started = time.perf_counter()
        self.lookup_index = load_lookup(settings)
        self.verifier = Verifier.load(settings, judge)
        # one checker and one relevance judge for /verify and /search's verification
        self.searcher = Searcher(settings, judge and (lambda _: self.verifier.judge),
                                 checker=self.verifier.checker)
        self._search_lock = threading.Lock()
        self.loaded_seconds = time.perf_counter() - started
        self.started = time.time()

    def warm(self, sides: tuple[str, ...] = ("statutes", "precedents")) -> None:
        """Load each side's search, and what verification reads when first needed, now, not
        on their first request."""
        self.verifier.checker.warm()
        for side in sides:
            self.searcher.search("warm up", side=side, k=1)

    def health(self, _: dict) -> dict:
        return {"status": "ok", "uptime_s": round(time.time() - self.started, 1),
                "loaded_in_s": round(self.loaded_seconds, 1),
                "data_dir": str(self.searcher.settings.data_dir)}

    def lookup(self, body: dict) -> dict | list[dict]:
        citation = _field(body, "citation", str, required=True)
        if not citation.strip():
            raise RequestError(HTTPStatus.BAD_REQUEST, "field 'citation' is empty")
        found = [result.to_dict() for result in self.lookup_index.lookup_all(citation)]
        return found[0] if len(found) == 1 else found  # a list's provisions, as --json

    def verify(self, body: dict) -> dict:
        text = _field(body, "text", str, required=True)
        try:
            report = self.verifier.report(text, _date(body), _field(body, "query", str))
        except TextTooLong as err:
            raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, str(err)) from None
        return report.to_dict()

    def search(self, body: dict) -> dict:
        k = _field(body, "k", int)
        try:
            with self._search_lock:
                answer = self.searcher.search(
                    _field(body, "q", str, required=True), side=_field(body, "side", str),
                    config=_field(body, "config", str), k=10 if k is None else k,
                    as_of=_date(body), verify=bool(_field(body, "verify", bool)))
        except SearchError as err:
            raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from None
        return answer.to_dict()

    def close(self) -> None:
        self.searcher.close()


def handler_for(service: Service) -> type[BaseHTTPRequestHandler]:
    """A request handler class bound to one service."""
    routes = {("GET", "/health"): service.health, ("POST", "/lookup"): service.lookup,
              ("POST", "/verify"): service.verify, ("POST", "/search"): service.search}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: a client reuses its connection
        # headers and body leave in two writes: with Nagle's algorithm on, the body waits
        # for the client's delayed ACK, 40 ms a response
        disable_nagle_algorithm = True
        server_version = "nyaya"

        def do_GET(self) -> None:
            self._answer("GET")

        def do_POST(self) -> None:
            self._answer("POST")

        def _answer(self, method: str) -> None:
            path = self.path.split("?", 1)[0]
            started = time.perf_counter()
            try:
                route = routes.get((method, path))
                if route is None:
                    allowed = [m for m, p in routes if p == path]
                    raise RequestError(
                        HTTPStatus.METHOD_NOT_ALLOWED if allowed else HTTPStatus.NOT_FOUND,
                        f"{method} {path}: use {allowed[0]}" if allowed else
                        f"no endpoint {path}: GET /health, POST /lookup, /verify, /search")
                body = self._body() if method == "POST" else {}
                status, answer = HTTPStatus.OK, route(body)
            except RequestError as err:
                status, answer = err.status, {"error": str(err)}
            except (OSError, ValueError) as err:  # a table that went missing or bad mid-run
                log.exception("%s %s failed", method, path)
                status, answer = HTTPStatus.INTERNAL_SERVER_ERROR, {"error": str(err)}
            data = json.dumps(answer, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            log.debug("%s %s %d in %.1f ms", method, path, status,
                      (time.perf_counter() - started) * 1000)

        def _drain(self, length: int) -> None:
            while length > 0:
                read = len(self.rfile.read(min(length, 1 << 16)))
                if not read:
                    return
                length -= read

        def _body(self) -> dict:
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                self.close_connection = True
                raise RequestError(HTTPStatus.LENGTH_REQUIRED,
                                   "a POST needs a Content-Length header") from None
            if length > MAX_BODY:
                self.close_connection = True  # the unread body would be the next request
                if length <= DRAINED:  # read it, so that the client, still sending, gets
                    self._drain(length)  # the answer instead of a broken pipe
                raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                                   f"body of {length} bytes: at most {MAX_BODY}")
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError as err:
                raise RequestError(HTTPStatus.BAD_REQUEST,
                                   f"body is not UTF-8 (byte {err.start})") from None
            except json.JSONDecodeError as err:
                raise RequestError(HTTPStatus.BAD_REQUEST,
                                   f"body is not JSON: {err.msg} at {err.pos}") from None
            if not isinstance(body, dict):
                raise RequestError(HTTPStatus.BAD_REQUEST,
                                   f"body must be a JSON object, got {type(body).__name__}")
            return body

        def log_message(self, format: str, *args: Any) -> None:
            log.debug(format, *args)

    return Handler


def make_server(service: Service, host: str = "127.0.0.1", port: int = 8765
                ) -> ThreadingHTTPServer:
    """The HTTP server over a loaded service (port 0: any free port)."""
    server = ThreadingHTTPServer((host, port), handler_for(service))
    server.daemon_threads = True
    return server
