"""redact_url: the one list of key-like query parameters, and URLs' user parts, blanked in any text."""

from __future__ import annotations

import pytest
from csi_conformance.groundwork.redaction import REDACTED, SECRET_QUERY_PARAMS, redact_url


@pytest.mark.parametrize("name", sorted(SECRET_QUERY_PARAMS))
def test_every_key_like_parameter_is_blanked_whatever_its_case(name: str) -> None:
    for spelled in (name, name.upper()):
        assert redact_url(f"https://h/p?x=1&{spelled}=s3cret&z=2") == f"https://h/p?x=1&{spelled}={REDACTED}&z=2"


def test_a_percent_encoded_parameter_name_is_blanked_too() -> None:
    """A peer may encode the name (`api%2Dkey`); the query's parsers decode it to `api-key`."""
    assert redact_url("https://h/?api%2Dkey=s3cret&x=1") == f"https://h/?api%2Dkey={REDACTED}&x=1"
    assert redact_url("https://h/?%61pi_key=s3cret") == f"https://h/?%61pi_key={REDACTED}"


def test_the_user_part_is_blanked_up_to_its_last_at_sign() -> None:
    assert redact_url("https://user:pa@ss@rpc.example:8899/x?y=1") == f"https://{REDACTED}@rpc.example:8899/x?y=1"
    assert redact_url("see https://rpc.example/?email=a@b") == "see https://rpc.example/?email=a@b"


def test_urls_inside_a_message_are_redacted_and_the_rest_kept_as_given() -> None:
    message = "Client error '429' for url 'https://u:p@h/?api-key=k1&q=a%2Fb'\nthen http://h2/?token=k2 failed"
    assert redact_url(message) == (f"Client error '429' for url 'https://{REDACTED}@h/?api-key={REDACTED}&q=a%2Fb'"
                                   f"\nthen http://h2/?token={REDACTED} failed")


@pytest.mark.parametrize("text", [
    "https://h/?monkey=1&keyword=2&my_token=3",  # names that only contain a secret's name
    "https://h/?api-key=&x=1",  # nothing to hide
    "no url here: key is fine",
])
def test_other_text_is_untouched(text: str) -> None:
    assert redact_url(text) == text
