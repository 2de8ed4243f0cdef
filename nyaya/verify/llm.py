"""Optional LLM-backed validators and segment judge, through an OpenAI-compatible endpoint.

Off by default: `LlmEndpoint.from_settings` gives None unless NYAYA_LLM_URL is set, and the
deterministic panel of `nyaya.verify.panel` runs. Given an endpoint, `run_panel(..., llm=...)`
asks it the five questions of spec 004 instead, each with the role's own prompt and reason
codes, on the same inputs the rules get. A model's answer is only taken when it is well formed
(known verdict, a reason code of that role and verdict); anything else, and any endpoint
failure, becomes UNCERTAIN with reason LLM_FAILED and the failure in `detail`: an outage must
not pass a citation (never VALID) nor stop the gate (never an exception).

`LlmSegmentJudge` is the optional judge of spec 002: does a text segment say what its cited
evidence says? It answers "verified", "unverified" or "error" with a reason.

Requests go out with the standard library (no extra dependency), one at a time, at
temperature 0 and asking for a JSON object.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from dataclasses import dataclass

from nyaya.citations.cases import CaseCitation
from nyaya.settings import Settings
from nyaya.verify.panel import INVALID, UNCERTAIN, VALID, Evaluation, Finding, NeutralRange

AUTHORITY = "citation_authority_validator_llm_v1"
ECOLOGY = "case_ecology_validator_llm_v1"
TEMPORAL = "temporal_reality_validator_llm_v1"
KNOWLEDGE = "legal_knowledge_validator_llm_v1"
SYNTHESIS = "reality_assessment_expert_llm_v1"
AGENTS = (AUTHORITY, ECOLOGY, TEMPORAL, KNOWLEDGE, SYNTHESIS)
LLM_FAILED = "llm_failed"  # the uncertain reason when the endpoint or its answer failed
EXCERPT = 200  # characters of a bad reply quoted in an error


class LlmError(RuntimeError):
    """The endpoint could not be reached, or did not answer with a JSON object."""


@dataclass(frozen=True)
class LlmEndpoint:
    """An OpenAI-compatible chat endpoint: `url` is its base (".../v1")."""

    url: str
    model: str
    api_key: str | None = None
    timeout_s: float = 30

    def __post_init__(self) -> None:
        if not self.url.startswith(("http://", "https://")):
            raise ValueError(f"LLM endpoint URL {self.url!r} is not an http(s) URL")
        if not self.model:
            raise ValueError(f"LLM endpoint {self.url}: no model named")
        if self.timeout_s <= 0:
            raise ValueError(f"LLM endpoint {self.url}: timeout {self.timeout_s}s is not > 0")

    @classmethod
    def from_settings(cls, settings: Settings) -> LlmEndpoint | None:
        """The configured endpoint, or None when NYAYA_LLM_URL is unset (the default: off)."""
        if not settings.llm_url:
            return None
        if not settings.llm_model:
            raise ValueError(f"NYAYA_LLM_URL is set ({settings.llm_url}) but NYAYA_LLM_MODEL is "
                             "not: name the model that endpoint serves")
        return cls(settings.llm_url, settings.llm_model, settings.llm_api_key)

    @property
    def chat_url(self) -> str:
        return self.url.rstrip("/") + "/chat/completions"

    def complete_json(self, system: str, user: str) -> dict:
        """The model's answer to one system + user message, parsed as a JSON object."""
        body = json.dumps({
            "model": self.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [{"role": "system", "content": system},
                         {"role": "user", "content": user}],
        }).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.chat_url, body, headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                raw = response.read()
        except urllib.error.HTTPError as err:
            text = err.read().decode("utf-8", "replace")
            raise self.error(f"HTTP {err.code}: {text[:EXCERPT]!r}") from err
        except (OSError, http.client.HTTPException) as err:  # URLError is an OSError
            reason = err.reason if isinstance(err, urllib.error.URLError) else err
            if isinstance(reason, TimeoutError):
                raise self.error(f"no reply within {self.timeout_s}s") from err
            raise self.error(f"request failed: {reason!r}") from err
        try:
            content = json.loads(raw)["choices"][0]["message"]["content"]
        except ValueError as err:  # not JSON, or not UTF-8
            raise self.error(f"reply is not JSON: {raw[:EXCERPT]!r}") from err
        except (KeyError, IndexError, TypeError) as err:
            raise self.error(f"reply has no choices[0].message.content: {raw[:EXCERPT]!r}") \
                from err
        if not isinstance(content, str):
            raise self.error(f"message content is {type(content).__name__}, not text")
        try:
            answer = json.loads(content)
        except ValueError as err:
            raise self.error(f"message content is not JSON: {content[:EXCERPT]!r}") from err
        if not isinstance(answer, dict):
            raise self.error(f"message content is a JSON {type(answer).__name__}, not an object")
        return answer

    def error(self, what: str) -> LlmError:
        """An LlmError naming this endpoint and model."""
        return LlmError(f"LLM endpoint {self.chat_url} (model {self.model}): {what}")

    def panel(self, cite: CaseCitation, now_year: int, neutral: dict[int, NeutralRange] | None,
              finding: Finding) -> list[Evaluation]:
        """The five validators asked of this endpoint, on the rules' inputs (synthesis last):
        what `nyaya.verify.panel.run_panel` runs given an endpoint."""
        evaluations = [authority(self, cite, now_year, neutral), ecology(self, cite),
                       temporal(self, cite, now_year, finding.decision_year),
                       knowledge(self, cite, finding)]
        evaluations.append(synthesis(self, cite, evaluations))
        return evaluations


# --- the five validators ------------------------------------------------------------------


@dataclass(frozen=True)
class Role:
    """One panelist of spec 004: its agent name, its question and its reason codes."""

    agent: str
    question: str
    invalid: dict[str, str]  # reason code -> when to use it
    uncertain: dict[str, str]

    def codes(self, verdict: str) -> dict[str, str]:
        return {INVALID: self.invalid, UNCERTAIN: self.uncertain}.get(verdict, {})

    def system_prompt(self) -> str:
        def listed(codes: dict[str, str]) -> str:
            return "\n".join(f"- {code}: {meaning}" for code, meaning in codes.items())
        return (f"{self.question}\n\n{INDIA}\n\n"
                "Answer with one JSON object and nothing else: {\"verdict\": \"VALID\" | "
                "\"INVALID\" | \"UNCERTAIN\", \"reason_codes\": [...], \"reasoning\": \"one or "
                "two sentences\"}. VALID takes no reason codes; INVALID and UNCERTAIN take at "
                "least one, from these lists only.\n"
                f"INVALID reason codes:\n{listed(self.invalid)}\n"
                f"UNCERTAIN reason codes:\n{listed(self.uncertain)}")


INDIA = ("The citation comes from a text about Indian law. The Supreme Court of India first sat "
         "on 28 January 1950; its decisions are reported in AIR (e.g. AIR 1978 SC 597), SCC "
         "(e.g. (1996) 4 SCC 319, with Cri, L&S and Tax series), SCR (e.g. [1974] 2 SCR 100), "
         "JT, SCALE, SCC OnLine and neutral citations (e.g. 2023 INSC 120, also given to older "
         "judgments: [1974] INSC 106). AIR also reports the High Courts (AIR 1960 "
         "Bom 12), the Privy Council (AIR PC, until 1950) and the Federal Court (AIR FC, "
         "1937-1950). Fields not written in the citation are null.")

ROLES = {
    AUTHORITY: Role(
        AUTHORITY,
        "You are a legal citation authority validator. Assess whether this citation's court, "
        "reporter and publication details (volume, page, year) are plausible: do this court's "
        "decisions appear in this reporter, was the reporter in print that year, and are the "
        "volume and page numbers within what that reporter prints in a year? You assess whether "
        "this COULD be a real publication, not whether you can verify the specific case.",
        {"reporter_court_mismatch": "the court does not publish in this reporter",
         "volume_impossible": "volume number unrealistic for this year and reporter",
         "page_unreasonable": "page (or neutral number) implausibly large or unusual",
         "reporter_timing_wrong": "the reporter did not exist in this year",
         "year_implausible": "year is in the future or before the court existed"},
        {"unusual_volume_page": "volume or page unusual but possibly correct",
         "reporter_edge_case": "court and reporter combination rare but possible",
         "timing_questionable": "year at the boundary of the reporter series"}),
    ECOLOGY: Role(
        ECOLOGY,
        "You are a case ecology validator. Assess whether the party names and the kind of case "
        "fit realistic Indian litigation: do the names sound like real people, companies or "
        "governments (State of X, Union of India, ...), or like placeholders and invented "
        "examples? Real cases often have ordinary names; the pattern should feel like real "
        "litigation.",
        {"party_names_artificial": "names sound artificially constructed",
         "case_type_implausible": "case type does not fit the parties or topic",
         "generic_pattern_suspicious": "the overall pattern feels like an invented example",
         "characteristics_mismatch": "case characteristics do not align with the parties"},
        {"names_generic_but_possible": "names are generic but could be real",
         "unusual_pairing": "parties unusual together but not impossible",
         "characteristics_unclear": "hard to assess without more context (e.g. no names)"}),
    TEMPORAL: Role(
        TEMPORAL,
        "You are a temporal reality validator. Assess whether this citation's timeline makes "
        "historical and legal sense: could the court have decided cases in this year, is the "
        "year not after the current year, and does the reported year fit the decision year "
        "(when given; a report normally appears in the decision year or within two years after)?",
        {"temporal_impossibility": "year before the court or law existed",
         "anachronistic_issue": "the legal issue did not exist at this time",
         "historical_mismatch": "does not fit the timeline (e.g. reported before decided)",
         "future_dated": "year is after the current year"},
        {"early_in_reporter_series": "from the early days of the reporter",
         "edge_of_legal_development": "at the boundary of when the issue emerged",
         "timing_unusual_but_possible": "timing odd but not impossible"}),
    KNOWLEDGE: Role(
        KNOWLEDGE,
        "You are a legal knowledge validator. Using your knowledge of Indian courts, reporters "
        "and case law, and what the tables we hold say about this citation (given as "
        "`our_tables`), assess whether it appears real or fabricated. `not_found_where_held` "
        "means the source that holds (nearly) every citation of this kind and year does not "
        "have it; `not_held` means we hold no complete source for it, which is no evidence "
        "either way; `name_mismatch` means the citation belongs to a case with other party "
        "names.",
        {"inconsistent_with_knowledge": "does not match the known legal landscape",
         "hallucination_pattern": "shows markers of AI fabrication",
         "unknown_authority": "authority not recognised, where it would be known",
         "implausible_combination": "citation elements do not fit together"},
        {"unfamiliar_but_possible": "not in your knowledge but could be real",
         "edge_case_authority": "authority at the edges of your knowledge",
         "weak_signals_both_ways": "some markers of real, some of fake"}),
    SYNTHESIS: Role(
        SYNTHESIS,
        "You are a reality assessment expert. Synthesise the citation and the four other "
        "validators' evaluations (given as `panel`) into a final assessment: is this citation "
        "likely real or invented? Hallucination markers: convenient round page numbers, party "
        "names that feel like examples, combinations that technically work but feel too "
        "perfect. Real citations often have messier specifics.",
        {"fabrication_markers": "shows multiple markers of invention",
         "too_perfect_fit": "fits the argument too conveniently",
         "implausible_synthesis": "does not synthesise into reality",
         "overall_unreality": "overall assessment leans toward fabrication"},
        {"mixed_signals": "some markers real, some suspicious",
         "insufficient_evidence": "not enough information to judge confidently",
         "edge_case_assessment": "could plausibly be either real or fabricated"}),
}


def _citation(cite: CaseCitation) -> dict:
    return {"citation": cite.text, "type": "case",
            "components": {"case_name": cite.case_name, "petitioner": cite.petitioner,
                           "respondent": cite.respondent, "reporter": cite.reporter,
                           "court": cite.court, "year": cite.year, "volume": cite.volume,
                           "page": cite.page, "supplementary": cite.supplementary}}


def _ask(endpoint: LlmEndpoint, role: Role, facts: dict) -> Evaluation:
    """One panelist's evaluation; UNCERTAIN / LLM_FAILED when the endpoint or answer fails."""
    try:
        answer = endpoint.complete_json(role.system_prompt(),
                                        json.dumps(facts, ensure_ascii=False, indent=1))
        verdict, codes, reasoning = _checked(endpoint, role, answer)
    except LlmError as err:
        return Evaluation(role.agent, UNCERTAIN, LLM_FAILED, str(err), model=endpoint.model)
    detail = reasoning + (f" (also: {', '.join(codes[1:])})" if len(codes) > 1 else "")
    reason = codes[0] if codes else None
    return Evaluation(role.agent, verdict, reason, detail, model=endpoint.model)


def _checked(endpoint: LlmEndpoint, role: Role, answer: dict) -> tuple[str, list[str], str]:
    """(verdict, reason codes, reasoning) of a well-formed answer; LlmError otherwise."""
    verdict = answer.get("verdict")
    if verdict not in (VALID, INVALID, UNCERTAIN):
        raise endpoint.error(f"verdict {verdict!r} is not VALID, INVALID or UNCERTAIN")
    codes = answer.get("reason_codes", [])
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        raise endpoint.error(f"reason_codes {codes!r} is not a list of strings")
    allowed = role.codes(verdict)
    unknown = [c for c in codes if c not in allowed]
    if unknown:
        raise endpoint.error(f"reason code(s) {', '.join(map(repr, unknown))} not allowed "
                             f"for {verdict} by {role.agent} (allowed: "
                             f"{', '.join(allowed) or 'none'})")
    if verdict != VALID and not codes:
        raise endpoint.error(f"{verdict} without a reason code")
    reasoning = answer.get("reasoning", "")
    if not isinstance(reasoning, str):
        raise endpoint.error(f"reasoning is {type(reasoning).__name__}, not text")
    return verdict, codes, reasoning


def authority(endpoint: LlmEndpoint, cite: CaseCitation, now_year: int,
              neutral: dict[int, NeutralRange] | None = None) -> Evaluation:
    """Could this reporter have printed this volume and page in this year? (the model's view)"""
    facts = {**_citation(cite), "current_year": now_year}
    held = (neutral or {}).get(cite.year or 0)
    if cite.reporter == "INSC" and held is not None:
        facts["insc_numbers_held"] = {"year": cite.year, "highest_number": held.max_number,
                                      "source_complete_for_year": held.complete}
    return _ask(endpoint, ROLES[AUTHORITY], facts)


def ecology(endpoint: LlmEndpoint, cite: CaseCitation) -> Evaluation:
    """Do the party names look like Indian litigation? (the model's view)"""
    return _ask(endpoint, ROLES[ECOLOGY], _citation(cite))


def temporal(endpoint: LlmEndpoint, cite: CaseCitation, now_year: int,
             decision_year: int | None = None) -> Evaluation:
    """Is the year possible for the court and the decision? (the model's view)"""
    facts = {**_citation(cite), "current_year": now_year, "decision_year": decision_year}
    return _ask(endpoint, ROLES[TEMPORAL], facts)


def knowledge(endpoint: LlmEndpoint, cite: CaseCitation, finding: Finding) -> Evaluation:
    """Real or fabricated, by the model's legal knowledge and what our tables say."""
    facts = {**_citation(cite), "our_tables": {"status": finding.status,
                                               "detail": finding.detail}}
    return _ask(endpoint, ROLES[KNOWLEDGE], facts)


def synthesis(endpoint: LlmEndpoint, cite: CaseCitation, others: list[Evaluation]) -> Evaluation:
    """The model's overall assessment, given the other four evaluations."""
    panel = [{"agent": e.agent, "verdict": e.verdict, "reason": e.reason, "detail": e.detail}
             for e in others]
    return _ask(endpoint, ROLES[SYNTHESIS], {**_citation(cite), "panel": panel})


# --- the segment judge (spec 002) ---------------------------------------------------------

VERIFIED = "verified"
UNVERIFIED = "unverified"
ERROR = "error"
JUDGE_PROMPT = (
    "You verify that a segment of a legal answer accurately reflects the evidence it cites. "
    "Compare the segment with the cited evidence for semantic accuracy, not exact wording: "
    "reasonable paraphrase is fine; a claim the evidence does not support, or one that "
    "contradicts it, is not. Answer with one JSON object and nothing else: {\"verified\": true "
    "| false, \"reason\": \"one sentence: what matches, or what is unsupported\"}.")


@dataclass(frozen=True)
class LlmSegmentJudge:
    """Spec 002's judge: (segment text, cited evidence) -> (status, reason)."""

    endpoint: LlmEndpoint

    def __call__(self, segment_text: str, evidence: list[str]) -> tuple[str, str]:
        if not evidence:
            return ERROR, "no cited evidence to check the segment against"
        user = json.dumps({"segment": segment_text,
                           "cited_evidence": [f"[{i}] {e}" for i, e in enumerate(evidence, 1)]},
                          ensure_ascii=False, indent=1)
        try:
            answer = self.endpoint.complete_json(JUDGE_PROMPT, user)
            verified, reason = answer.get("verified"), answer.get("reason")
            if not isinstance(verified, bool):
                raise self.endpoint.error(f"'verified' is {verified!r}, not true or false")
            if not isinstance(reason, str) or not reason.strip():
                raise self.endpoint.error("no 'reason' text in the answer")
        except LlmError as err:
            return ERROR, str(err)
        return (VERIFIED if verified else UNVERIFIED), reason
