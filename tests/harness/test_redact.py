"""Redactor: every spelling of a secret goes, nothing else does."""

from __future__ import annotations

import json
from urllib.parse import quote, quote_plus

import pytest
from csi_conformance.harness.redact import REDACTED, Redactor

SECRET = "k3y/with+reserved &=?#%~é"


@pytest.mark.parametrize("spelling", [
    SECRET,
    quote(SECRET, safe=""),
    quote(SECRET),
    quote_plus(SECRET),
    quote(SECRET, safe="").lower(),
    quote(quote(SECRET, safe=""), safe=""),
    json.dumps(SECRET)[1:-1],
    json.dumps(SECRET, ensure_ascii=False)[1:-1],
    SECRET.replace("/", "\\/"),
])
def test_every_spelling_is_replaced(spelling):
    redactor = Redactor([SECRET])
    assert redactor.text(f"before {spelling} after") == f"before {REDACTED} after"
    assert redactor.bytes(f"<{spelling}>".encode()) == f"<{REDACTED}>".encode()


def test_an_encoded_spelling_is_replaced_whole():
    """`k%` encodes as `k%25`, which starts with the raw secret: the raw form first would leave `25` behind."""
    redactor = Redactor(["k%"])
    assert redactor.text("x=k%25&y=k%") == f"x={REDACTED}&y={REDACTED}"


def test_url_blanks_any_api_key_value():
    redactor = Redactor([SECRET])
    url = f"https://h/p?x=1&api-key={quote(SECRET, safe='')}&z=2"
    assert redactor.url(url) == f"https://h/p?x=1&api-key={REDACTED}&z=2"
    assert redactor.url("https://h/?API-KEY=someone-elses#frag") == f"https://h/?API-KEY={REDACTED}#frag"


def test_url_blanks_what_the_kit_blanks_everywhere_else():
    """One list of key-like parameters for the harness, the ingest's fetch and the reference server
    (groundwork.redaction): a target's `token` or `key`, and a user part, are not the harness's to show."""
    redactor = Redactor([])
    assert redactor.url("https://h/?token=t0&key=k0&x=1") == f"https://h/?token={REDACTED}&key={REDACTED}&x=1"
    assert redactor.url("https://me:pw@h/?x=1") == f"https://{REDACTED}@h/?x=1"


def test_other_text_is_untouched():
    redactor = Redactor([SECRET])
    text = "api key is not here; k3y alone is fine"
    assert redactor.text(text) == text and redactor.bytes(text.encode()) == text.encode()


def test_no_secret_and_empty_secrets_change_nothing():
    for redactor in (Redactor([]), Redactor(["", ""])):
        assert redactor.text("abc") == "abc" and redactor.bytes(b"abc") == b"abc"
        assert redactor.url("http://h/?api-key=x") == f"http://h/?api-key={REDACTED}"


def test_several_secrets():
    redactor = Redactor(["alpha-1", "beta-2"])
    assert redactor.text("alpha-1 beta-2 gamma-3") == f"{REDACTED} {REDACTED} gamma-3"
