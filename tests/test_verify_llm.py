"""The optional LLM validators and segment judge, against a stub OpenAI-compatible server.

The stub (http.server on 127.0.0.1, port 0) is the only double: it answers each request with
the next scripted reply and records what it was sent, so the tests see the real HTTP client,
the prompts and every way an endpoint or its answer can fail.
"""

from __future__ import annotations

import json
import socket
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from nyaya.citations.cases import CaseCitation, parse_case_citation
from nyaya.settings import Settings
from nyaya.verify import llm, panel
from nyaya.verify.llm import LlmEndpoint, LlmError, LlmSegmentJudge

MODEL = "stub-model-1"


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    hold: bool = False  # answer only when the test ends: the client must time out first


def chat(content: dict | str) -> Reply:
    """An OpenAI chat-completion reply whose message content is `content` (JSON-encoded)."""
    text = content if isinstance(content, str) else json.dumps(content)
    return Reply(body=json.dumps({"choices": [{"message": {"role": "assistant",
                                                           "content": text}}]}).encode())


def verdict(v: str, *codes: str, reasoning: str = "because") -> Reply:
    return chat({"verdict": v, "reason_codes": list(codes), "reasoning": reasoning})


@dataclass
class Stub:
    url: str
    replies: deque[Reply] = field(default_factory=deque)
    requests: list[dict] = field(default_factory=list)  # path, headers, body of each request
    release: threading.Event = field(default_factory=threading.Event)

    def script(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def endpoint(self, **kwargs) -> LlmEndpoint:
        return LlmEndpoint(self.url, MODEL, **kwargs)

    def sent(self, i: int = -1) -> tuple[str, dict]:
        """(system prompt, user facts) of request i."""
        system, user = self.requests[i]["body"]["messages"]
        return system["content"], json.loads(user["content"])


@pytest.fixture(scope="module")
def server() -> Iterator[Stub]:
    """One stub server for the module; `stub` gives each test a fresh script."""
    state: Stub

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            state.requests.append({"path": self.path, "headers": dict(self.headers),
                                   "body": json.loads(self.rfile.read(length))})
            reply = (state.replies.popleft() if state.replies
                     else Reply(599, b"stub: no scripted reply left"))
            if reply.hold:
                state.release.wait(10)
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)
            except OSError:  # the client gave up (the timeout test)
                pass

        def log_message(self, *args) -> None:
            pass

    http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    http.daemon_threads = True
    state = Stub(f"http://127.0.0.1:{http.server_address[1]}/v1")
    threading.Thread(target=http.serve_forever, daemon=True).start()
    yield state
    http.shutdown()
    http.server_close()


@pytest.fixture
def stub(server: Stub) -> Iterator[Stub]:
    server.replies, server.requests, server.release = deque(), [], threading.Event()
    yield server
    server.release.set()  # lets a held reply go


def closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}/v1"


CITE = parse_case_citation("Ram Prasad v. State of Bihar, 2024 INSC 2000")
AIR = parse_case_citation("Maneka Gandhi v. Union of India, AIR 1978 SC 597")
NEUTRAL = {2024: panel.NeutralRange(1100, True)}
FINDING = panel.Finding("not_found_where_held", "2024 INSC 2000 is not in the SC registry")
OTHERS = [panel.Evaluation(a, panel.VALID, None, "", MODEL) for a in llm.AGENTS[:4]]

# validator, its agent, the citation it judges, a reply with that role's codes, and a fact only
# that role is sent (where to find it in the user message, its value)
ROLE_CASES = [
    (lambda e: llm.authority(e, CITE, 2025, NEUTRAL), llm.AUTHORITY, CITE,
     ("INVALID", "page_unreasonable"), lambda u: u["insc_numbers_held"]["highest_number"], 1100),
    (lambda e: llm.ecology(e, AIR), llm.ECOLOGY, AIR,
     ("UNCERTAIN", "unusual_pairing"), lambda u: u["components"]["petitioner"], "Maneka Gandhi"),
    (lambda e: llm.temporal(e, CITE, 2025, 2023), llm.TEMPORAL, CITE,
     ("VALID",), lambda u: (u["current_year"], u["decision_year"]), (2025, 2023)),
    (lambda e: llm.knowledge(e, CITE, FINDING), llm.KNOWLEDGE, CITE,
     ("INVALID", "unknown_authority"), lambda u: u["our_tables"]["status"],
     "not_found_where_held"),
    (lambda e: llm.synthesis(e, CITE, OTHERS), llm.SYNTHESIS, CITE,
     ("UNCERTAIN", "mixed_signals", "insufficient_evidence"),
     lambda u: [p["agent"] for p in u["panel"]], list(llm.AGENTS[:4])),
]


@pytest.mark.parametrize(("validate", "agent", "cite", "answer", "fact", "value"), ROLE_CASES,
                         ids=[c[1] for c in ROLE_CASES])
def test_each_role_asks_its_question(stub: Stub, validate: Callable, agent: str,
                                     cite: CaseCitation, answer: tuple[str, ...],
                                     fact: Callable[[dict], object], value: object) -> None:
    stub.script(verdict(*answer, reasoning="the model's reason"))
    got = validate(stub.endpoint())
    codes = answer[1:]
    assert (got.agent, got.verdict, got.reason) == (agent, answer[0], codes[0] if codes else None)
    assert got.model == MODEL
    assert got.detail == "the model's reason" + (
        f" (also: {', '.join(codes[1:])})" if len(codes) > 1 else "")
    [request] = stub.requests
    assert request["path"] == "/v1/chat/completions"
    body = request["body"]
    assert (body["model"], body["temperature"], body["response_format"]) == (
        MODEL, 0, {"type": "json_object"})
    system, user = stub.sent()
    role = llm.ROLES[agent]
    assert all(code in system for code in [*role.invalid, *role.uncertain])
    assert user["citation"] == cite.text and fact(user) == value


def test_roles_have_their_own_codes_and_names() -> None:
    assert tuple(llm.ROLES) == llm.AGENTS
    assert not set(llm.AGENTS) & set(panel.AGENTS)
    for agent, role in llm.ROLES.items():
        assert role.agent == agent and len(role.invalid) >= 4 and len(role.uncertain) == 3
        assert not set(role.invalid) & set(role.uncertain)


@pytest.mark.parametrize(("api_key", "expected"), [("sk-test", "Bearer sk-test"), (None, None)])
def test_authorization_header(stub: Stub, api_key: str | None, expected: str | None) -> None:
    stub.script(chat({"ok": True}))
    assert stub.endpoint(api_key=api_key).complete_json("s", "u") == {"ok": True}
    assert stub.requests[0]["headers"].get("Authorization") == expected


# what the stub answers -> words the failure must name
FAILURES = [
    ("http_500", Reply(500, b'{"error": "model overloaded"}'), "HTTP 500: '{\"error\": \"model"),
    ("body_not_json", Reply(body=b"<html>gateway</html>"), "reply is not JSON"),
    ("no_choices", Reply(body=b'{"choices": []}'), "no choices[0].message.content"),
    ("content_not_json", chat("VALID, looks fine"), "message content is not JSON"),
    ("content_a_list", chat("[1, 2]"), "a JSON list, not an object"),
    ("timeout", Reply(hold=True), "no reply within 0.2s"),
]
BAD_VERDICTS = [
    ("unknown_verdict", verdict("PROBABLY_VALID"), "verdict 'PROBABLY_VALID' is not VALID"),
    ("unknown_code", verdict("INVALID", "looks_fake"), "'looks_fake' not allowed for INVALID"),
    ("code_of_other_verdict", verdict("UNCERTAIN", "page_unreasonable"),
     "'page_unreasonable' not allowed for UNCERTAIN"),
    ("valid_with_code", verdict("VALID", "mixed_signals"), "not allowed for VALID"),
    ("invalid_without_code", verdict("INVALID"), "INVALID without a reason code"),
    ("codes_not_a_list", chat({"verdict": "INVALID", "reason_codes": "page_unreasonable"}),
     "is not a list of strings"),
]


def _bad_replies(cases: list[tuple]) -> list:
    """Each case as a param marked with its bad-input kind (an LLM reply is outside input)."""
    return [pytest.param(*case[1:], id=case[0], marks=pytest.mark.bad_input(
        "LLM replies", case[0].replace("_", " "))) for case in cases]


@pytest.mark.parametrize(("reply", "named"), _bad_replies(FAILURES + BAD_VERDICTS))
def test_a_failed_answer_is_uncertain_never_valid(stub: Stub, reply: Reply, named: str) -> None:
    stub.script(reply)
    got = llm.authority(stub.endpoint(timeout_s=0.2), CITE, 2025, NEUTRAL)
    assert (got.verdict, got.reason, got.model) == (panel.UNCERTAIN, llm.LLM_FAILED, MODEL)
    assert named in got.detail
    assert f"{stub.url}/chat/completions" in got.detail


@pytest.mark.parametrize(("reply", "named"), _bad_replies(FAILURES))
def test_judge_reports_failures_as_error(stub: Stub, reply: Reply, named: str) -> None:
    stub.script(reply)
    status, reason = LlmSegmentJudge(stub.endpoint(timeout_s=0.2))("BNS 103 punishes murder.",
                                                                   ["BNS s.103: murder"])
    assert status == llm.ERROR
    assert named in reason and f"{stub.url}/chat/completions" in reason


def test_connection_refused_names_the_endpoint() -> None:
    endpoint = LlmEndpoint(closed_port_url(), MODEL, timeout_s=2)
    with pytest.raises(LlmError, match=r"LLM endpoint http://127\.0\.0\.1:\d+/v1/chat/completions"
                                       r" \(model stub-model-1\): request failed: "
                                       r".*(refused|Errno)"):
        endpoint.complete_json("s", "u")
    assert llm.ecology(endpoint, AIR).verdict == panel.UNCERTAIN


JUDGE_CASES = [
    ({"verified": True, "reason": "matches E1"}, (llm.VERIFIED, "matches E1")),
    ({"verified": False, "reason": "E1 says life, not death"},
     (llm.UNVERIFIED, "E1 says life, not death")),
    ({"verified": "yes", "reason": "x"}, (llm.ERROR, "'verified' is 'yes', not true or false")),
    ({"verified": True}, (llm.ERROR, "no 'reason' text")),
]


@pytest.mark.parametrize(("answer", "expected"), JUDGE_CASES,
                         ids=["verified", "unverified", "verified_not_bool", "no_reason"])
def test_segment_judge(stub: Stub, answer: dict, expected: tuple[str, str]) -> None:
    stub.script(chat(answer))
    status, reason = LlmSegmentJudge(stub.endpoint())(
        "Murder under BNS 103 is punishable with death.", ["BNS s.103: death or life", "E2"])
    assert status == expected[0] and expected[1] in reason
    system, user = stub.sent()
    assert "semantic accuracy" in system
    assert user == {"segment": "Murder under BNS 103 is punishable with death.",
                    "cited_evidence": ["[1] BNS s.103: death or life", "[2] E2"]}


def test_judge_without_evidence_is_an_error_without_a_request(stub: Stub) -> None:
    assert LlmSegmentJudge(stub.endpoint())("text", []) == (
        llm.ERROR, "no cited evidence to check the segment against")
    assert stub.requests == []


def test_panel_with_llm(stub: Stub) -> None:
    stub.script(verdict("VALID"), verdict("VALID"), verdict("VALID"),
                verdict("INVALID", "unknown_authority"), verdict("UNCERTAIN", "mixed_signals"))
    result = panel.run_panel(CITE, FINDING, NEUTRAL, 2025, "2025-11-19T10:30:00Z",
                             llm=stub.endpoint())
    out = result.to_dict()
    assert [e["agent"] for e in out["panel_evaluation"]] == list(llm.AGENTS)
    assert {e["model"] for e in out["panel_evaluation"]} == {MODEL}
    assert out["consensus"]["verdict_counts"] == {"VALID": 3, "INVALID": 1, "UNCERTAIN": 1}
    assert result.consensus.recommendation == panel.LIKELY_UNCERTAIN
    assert result.flags == [f"{llm.KNOWLEDGE}: unknown_authority"]
    _, synthesis_facts = stub.sent(4)
    assert [(p["agent"], p["verdict"]) for p in synthesis_facts["panel"]] == [
        (llm.AUTHORITY, "VALID"), (llm.ECOLOGY, "VALID"), (llm.TEMPORAL, "VALID"),
        (llm.KNOWLEDGE, "INVALID")]


def test_panel_survives_a_dead_endpoint() -> None:
    result = panel.run_panel(CITE, FINDING, NEUTRAL, 2025,
                             llm=LlmEndpoint(closed_port_url(), MODEL, timeout_s=2))
    assert [e.verdict for e in result.evaluations] == [panel.UNCERTAIN] * 5
    assert {e.reason for e in result.evaluations} == {llm.LLM_FAILED}
    assert result.consensus.verdict_counts[panel.VALID] == 0 and not result.flags


def test_off_by_default(stub: Stub, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NYAYA_LLM_URL", "NYAYA_LLM_API_KEY", "NYAYA_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    assert LlmEndpoint.from_settings(Settings.from_env()) is None
    monkeypatch.setenv("NYAYA_LLM_URL", stub.url)  # configured, but not passed to the panel
    monkeypatch.setenv("NYAYA_LLM_MODEL", MODEL)
    result = panel.run_panel(CITE, FINDING, NEUTRAL, 2025)
    assert [e.agent for e in result.evaluations] == list(panel.AGENTS)
    assert {e.to_dict("t")["model"] for e in result.evaluations} == {panel.MODEL}
    assert stub.requests == []


@pytest.mark.parametrize(("env", "expected"), [
    ({"NYAYA_LLM_URL": "http://llm:8000/v1", "NYAYA_LLM_MODEL": "qwen2.5-7b"},
     LlmEndpoint("http://llm:8000/v1", "qwen2.5-7b")),
    ({"NYAYA_LLM_URL": "https://api.example/v1", "NYAYA_LLM_MODEL": "m",
      "NYAYA_LLM_API_KEY": "sk-1"}, LlmEndpoint("https://api.example/v1", "m", "sk-1")),
    ({"NYAYA_LLM_URL": "", "NYAYA_LLM_MODEL": "m"}, None),
], ids=["url_and_model", "with_api_key", "empty_url_is_off"])
def test_endpoint_from_settings(monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                                expected: LlmEndpoint | None) -> None:
    monkeypatch.delenv("NYAYA_LLM_API_KEY", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert LlmEndpoint.from_settings(Settings.from_env()) == expected


@pytest.mark.parametrize(("make", "message"), [
    pytest.param(lambda: LlmEndpoint.from_settings(Settings.from_env()), "NYAYA_LLM_MODEL is not",
                 marks=pytest.mark.bad_input("settings/env", "NYAYA_LLM_URL without a model")),
    pytest.param(lambda: LlmEndpoint("llm:8000/v1", MODEL), "'llm:8000/v1' is not an http",
                 marks=pytest.mark.bad_input("settings/env", "LLM URL not http")),
    pytest.param(lambda: LlmEndpoint("http://llm/v1", MODEL, timeout_s=0), "timeout 0s is not > 0",
                 marks=pytest.mark.bad_input("settings/env", "LLM timeout not positive")),
], ids=["url_without_model", "not_http", "zero_timeout"])
def test_bad_configuration_is_named(monkeypatch: pytest.MonkeyPatch, make: Callable,
                                    message: str) -> None:
    monkeypatch.setenv("NYAYA_LLM_URL", "http://llm:8000/v1")
    monkeypatch.delenv("NYAYA_LLM_MODEL", raising=False)
    with pytest.raises(ValueError, match=message):
        make()


def test_verify_segments_cli_lets_the_llm_judge(stub: Stub, tmp_path, monkeypatch, capsys
                                                ) -> None:
    from pipelines.cli import main

    evidence = tmp_path / "evidence.json"
    evidence.write_text(json.dumps([{"id": "E1", "claim": "BNS s.103: death or life"}]))
    answer = tmp_path / "answer.txt"
    # the support score alone would verify this; the judge says no and decides
    answer.write_text("BNS s.103: death or life [E1].")
    monkeypatch.setenv("NYAYA_LLM_URL", stub.url)
    monkeypatch.setenv("NYAYA_LLM_MODEL", MODEL)
    stub.script(chat({"verified": False, "reason": "the judge disagrees"}))
    assert main(["verify-segments", str(answer), "--evidence", str(evidence), "--llm",
                     "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["segments"][0]["verified"] == "No"
    assert "the judge disagrees" in report["segments"][0]["verification_reason"]
    assert len(stub.requests) == 1
    monkeypatch.delenv("NYAYA_LLM_URL")
    assert main(["verify-segments", str(answer), "--evidence", str(evidence),
                     "--llm"]) == 2
    assert "--llm needs NYAYA_LLM_URL and NYAYA_LLM_MODEL" in capsys.readouterr().err


def test_case_verifier_with_llm_panel(stub: Stub) -> None:
    """Not held: the LLM panel judges; when the endpoint fails, the citation is unverifiable
    ('panel incomplete'), never called fabricated because of an outage."""
    from test_verify_cases import EDGES, JUDGMENTS, NODES, REGISTRY

    from nyaya.verify.cases import UNVERIFIABLE, CaseVerifier

    text = "Sunil Batra v. Delhi Administration, AIR 1978 SC 1675"
    valid = [verdict("VALID") for _ in range(5)]
    stub.script(*valid)
    checked = CaseVerifier(JUDGMENTS, REGISTRY, NODES, EDGES, now_year=2025,
                           llm=stub.endpoint()).verify(text)
    assert [v.status for v in checked] == [UNVERIFIABLE] and "5/5 VALID" in checked[0].reason
    assert len(stub.requests) == 5
    down = CaseVerifier(JUDGMENTS, REGISTRY, NODES, EDGES, now_year=2025,
                        llm=LlmEndpoint(closed_port_url(), MODEL, timeout_s=2)).verify(text)
    assert [v.status for v in down] == [UNVERIFIABLE]
    assert "panel incomplete: 5 of 5 LLM validators failed" in down[0].reason
