"""A Schemathesis check for the contract run (Tests/contract/run): valid data is refused only for reasons of state.

The built-in `positive_data_acceptance` check fails when a request the schema allows is answered 400 or 422. A few
such answers depend on state that no schema can state: a well-formed token or code that names no record (400
invalid_token, token_expired, invalid_code, or the landing page's invalid or expired link), a passkey challenge id that
names no live challenge or a credential no platform made (400 invalid_passkey_challenge, passkey_rejected), a
provider sign-in nonce id that names no live nonce (400 invalid_nonce), an admin listing's cursor that this API did not
return (400 invalid_cursor: a cursor is opaque, so the schema allows any text), a
credential whose id is not the same text as its rawId (422 invalid_request naming credential.id: WebAuthn requires it,
JSON Schema cannot say it), a password of the right length that is the address itself or on the shipped list of
common passwords (422 weak_password), and a well-formed language tag that names no locale latchd has mail templates
for (422 unsupported_locale: which ones exist is the deployment's, so the schema allows any well-formed tag; a tag
that Lookup matches to en, which latchd always has, must be accepted). For the
operations that can give them, schemathesis.toml adds 400 or 422 to that check's expected statuses; this check
takes the exemption back for everything but exactly those codes, so any other refusal of valid data still fails.
"""
import json
import re

import schemathesis

TOKEN_STATE = {"invalid_token", "token_expired", "invalid_code"}
WEAK_PASSWORD = {"password_is_email", "password_too_common"}
PAGE_STATE = {"invalid", "expired"}
PASSKEY_STATE = {"invalid_passkey_challenge", "passkey_rejected"}
NONCE_STATE = {"invalid_nonce"}
# The locales every latchd has templates for: a tag RFC 4647 Lookup matches to one of them is never refused.
ALWAYS_AVAILABLE = {"en"}
CREDENTIAL_ID_MESSAGE = "missing or invalid field: credential.id"

# operationId -> status -> what the answer must say for a refusal of valid data to be one of state.
STATE_REFUSALS = {
    "signUp": {422: "weak_password_or_locale"},
    "changePassword": {422: "weak_password"},
    "confirm": {400: "token"},
    "confirmEmailChange": {400: "token"},
    "verifyEmailSignIn": {400: "token"},
    "reauthenticate": {400: "token_or_passkey", 422: "credential_id"},
    "registerPasskey": {400: "passkey", 422: "credential_id"},
    "signInWithPasskey": {400: "passkey", 422: "credential_id"},
    "signInWithApple": {400: "nonce"},
    "updateMe": {422: "locale"},
    "resetPassword": {400: "token", 422: "weak_password"},
    "acceptInvite": {400: "token", 422: "weak_password"},
    "confirmAuthPage": {400: "page"},
    "resetPasswordPage": {400: "page"},
    "confirmEmailChangePage": {400: "page"},
    "signInPage": {400: "page"},
    "acceptInvitePage": {400: "page"},
    "listAdminUsers": {400: "cursor"},
    "inviteAdminUser": {422: "locale"},
    "updateAdminUser": {422: "locale"},
}


def _error(response):
    try:
        error = json.loads(response.text)["error"]
        return error.get("code"), error.get("reason")
    except (ValueError, KeyError, TypeError):
        return None, None


def _message(response):
    try:
        return json.loads(response.text)["error"].get("message")
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _finds_available(tag):
    """Whether RFC 4647 Lookup (as latchd's LanguageNegotiation does it) finds an always-available locale for tag."""
    subtags = tag.split("-")
    while subtags:
        if "-".join(subtags).lower() in ALWAYS_AVAILABLE:
            return True
        subtags.pop()
        if subtags and len(subtags[-1]) == 1:
            subtags.pop()
    return False


def _is_unavailable_locale(response, case):
    code, _ = _error(response)
    locale = case.body.get("locale") if isinstance(case.body, dict) else None
    return code == "unsupported_locale" and isinstance(locale, str) and not _finds_available(locale)


def _is_state_refusal(kind, response, case):
    if kind == "page":
        match = re.search(r'data-state="([a-z_]+)"', response.text)
        return match is not None and match.group(1) in PAGE_STATE
    code, reason = _error(response)
    if kind == "token":
        return code in TOKEN_STATE
    if kind == "passkey":
        return code in PASSKEY_STATE
    if kind == "nonce":
        return code in NONCE_STATE
    if kind == "cursor":
        return code == "invalid_cursor"
    if kind == "token_or_passkey":
        return code in TOKEN_STATE or code in PASSKEY_STATE
    if kind == "locale":
        return _is_unavailable_locale(response, case)
    if kind == "weak_password_or_locale" and _is_unavailable_locale(response, case):
        return True
    if kind == "credential_id":
        return code == "invalid_request" and _message(response) == CREDENTIAL_ID_MESSAGE
    return code == "weak_password" and reason in WEAK_PASSWORD


@schemathesis.check
def valid_data_refused_only_for_state(ctx, response, case):
    """A schema-valid request answered 400 or 422 only with a refusal that depends on stored state."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    expected = STATE_REFUSALS.get(case.operation.definition.raw.get("operationId"), {})
    kind = expected.get(response.status_code)
    if kind is None or _is_state_refusal(kind, response, case):
        return None
    raise AssertionError(
        f"Valid data refused with {response.status_code} for a reason the schema should state: {response.text[:300]}")
