"""The software authenticator (authenticator.py) checked against Duo's py_webauthn alone, without latchd:

    python self_check.py [--verbose]   # prints failed checks (all with --verbose), exits 1 if any failed

- Its unmutated registrations, for ES256, EdDSA and RS256, with and without the backup flags, and from an
  `android:apk-key-hash:` origin, verify with py_webauthn's verify_registration_response (user verification
  required), and py_webauthn reads back the credential id, algorithm, counter and flags the authenticator meant.
- Its assertions with those credentials verify with verify_authentication_response against the public key
  py_webauthn extracted at registration, and a counter that does not grow is refused.
- Every mutation changes the response, and each one py_webauthn checks is refused by it; the rest (strict CBOR,
  key validity, credential id binding: checks the reference verifier leaves out) are listed as not checked by the
  reference, so that latchd's tests are the only place they are judged.
- The hand-built CBOR (cbor_map) of an unmutated response is byte for byte what cbor2 writes canonically.

The options are built here the way latchd's contract (/v1/passkeys/.../options) shapes them.
"""
import hashlib
import json
import os
import subprocess
import sys
import pathlib

import cbor2
from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers.cose import COSEAlgorithmIdentifier

import authenticator as auth

HERE = pathlib.Path(__file__).resolve().parent
RP_ID = "latch.test"
ORIGIN = "https://latch.test"
ANDROID_ORIGIN = "android:apk-key-hash:" + auth.b64url(hashlib.sha256(b"a signing certificate").digest())
ALGORITHMS = [auth.ES256, auth.EDDSA, auth.RS256]

# Mutations the reference verifier must refuse: each breaks a step of WebAuthn L3 §7.1 / §7.2 that py_webauthn
# implements. The others are judged by latchd's tests only (the self-check prints what py_webauthn made of them).
REFERENCE_REFUSES_CREATE = {
    "wrong_type", "wrong_challenge", "foreign_origin", "wrong_rp_id_hash", "up_clear", "uv_clear",
    "bs_without_be", "at_clear", "trailing_auth_data", "unoffered_alg", "none_with_att_stmt",
    "empty_client_data_challenge",
}
REFERENCE_REFUSES_GET = {
    "wrong_type", "wrong_challenge", "foreign_origin", "wrong_rp_id_hash", "up_clear", "uv_clear",
    "bs_without_be", "bad_signature", "signed_other_data", "trailing_auth_data",
}

failures = []
checks = 0


VERBOSE = "--verbose" in sys.argv


def check(condition: bool, label: str, detail="") -> None:
    """Records one check; prints it when it failed, or always with --verbose."""
    global checks
    checks += 1
    if VERBOSE or not condition:
        print(("ok   " if condition else "FAIL ") + label + (f": {detail}" if detail and not condition else ""))
    if not condition:
        failures.append(label)


def registration_options() -> dict:
    """The publicKey member of latchd's registration options, for a fresh user and challenge."""
    return {
        "rp": {"id": RP_ID, "name": "Latch"},
        "user": {"id": auth.b64url(os.urandom(32)), "name": "a@example.test", "displayName": "a@example.test"},
        "challenge": auth.b64url(os.urandom(32)),
        "pubKeyCredParams": [{"type": "public-key", "alg": alg} for alg in ALGORITHMS],
        "timeout": 300000,
        "attestation": "none",
        "authenticatorSelection": {"residentKey": "required", "requireResidentKey": True,
                                   "userVerification": "required"},
        "excludeCredentials": [],
    }


def authentication_options() -> dict:
    return {"challenge": auth.b64url(os.urandom(32)), "rpId": RP_ID, "timeout": 300000,
            "userVerification": "required", "allowCredentials": []}


def reference_registration(created: dict, options: dict, origin: str = ORIGIN) -> dict:
    """verify-registration as the Swift tests run it: through the command line, JSON in and out."""
    request = {"credential": created["credential"], "challenge": options["challenge"], "rp_id": RP_ID,
               "origins": [origin], "algorithms": ALGORITHMS}
    done = subprocess.run([sys.executable, str(HERE / "authenticator.py"), "verify-registration"],
                          input=json.dumps(request), capture_output=True, text=True, check=True, timeout=60)
    return json.loads(done.stdout)


def reference_assertion(asserted: dict, options: dict, public_key: bytes, current_count: int,
                        origin: str = ORIGIN):
    """py_webauthn's verify_authentication_response: the verified result, or the exception it raised."""
    try:
        return verify_authentication_response(
            credential=asserted["credential"], expected_challenge=auth.unb64url(options["challenge"]),
            expected_rp_id=RP_ID, expected_origin=origin, credential_public_key=public_key,
            credential_current_sign_count=current_count, require_user_verification=True)
    except Exception as error:
        return error


def check_ceremonies(alg: int, flags: dict, origin: str) -> None:
    """One registration and two assertions, then a counter that does not grow."""
    label = f"alg {alg} flags {flags} origin {origin[:24]}"
    options = registration_options()
    created = auth.create({"options": options, "origin": origin, "alg": alg, "flags": flags, "sign_count": 1})
    verdict = reference_registration(created, options, origin)
    check(verdict.get("verified") is True, f"{label}: reference accepts the registration", verdict)
    if not verdict.get("verified"):
        return
    stored = created["stored"]
    check(verdict["credential_id"] == stored["credential_id"], f"{label}: credential id read back")
    check(verdict["sign_count"] == 1, f"{label}: counter read back", verdict)
    check(verdict["backup_eligible"] == flags.get("be", False) and verdict["backed_up"] == flags.get("bs", False),
          f"{label}: backup flags read back", verdict)
    check(verdict["public_key"] == stored["public_key"], f"{label}: COSE key read back")
    check(cbor2.loads(auth.unb64url(stored["public_key"]))[3] == alg, f"{label}: COSE alg is {alg}")
    attestation = auth.unb64url(created["credential"]["response"]["attestationObject"])
    check(attestation == cbor2.dumps(cbor2.loads(attestation), canonical=True),
          f"{label}: hand-built attestationObject is canonical CBOR")
    public_key = auth.unb64url(verdict["public_key"])

    count = 1
    for step in (5, 6):
        options = authentication_options()
        asserted = auth.get({"options": options, "credential": stored, "origin": origin, "sign_count": step})
        result = reference_assertion(asserted, options, public_key, count, origin)
        check(not isinstance(result, Exception), f"{label}: reference accepts assertion with counter {step}", result)
        if not isinstance(result, Exception):
            check(result.new_sign_count == step, f"{label}: counter {step} read back")
            check(result.user_verified, f"{label}: UV read back")
        count = step
    response = asserted["credential"]["response"]
    check(response["userHandle"] == options_user(created), f"{label}: userHandle is the registration's user.id")
    options = authentication_options()
    replayed = auth.get({"options": options, "credential": stored, "origin": origin, "sign_count": count})
    check(isinstance(reference_assertion(replayed, options, public_key, count, origin), Exception),
          f"{label}: reference refuses a counter that did not grow")


def options_user(created: dict) -> str:
    return created["stored"]["user_handle"]


def check_create_mutations() -> None:
    for name, meaning in auth.CREATE_MUTATIONS.items():
        options = registration_options()
        alg = auth.RS256 if name == "small_rsa" else auth.ES256
        created = auth.create({"options": options, "alg": alg, "mutations": [name]})
        plain = auth.create({"options": options, "alg": alg})
        check(created["credential"] != plain["credential"], f"create {name}: changes the response")
        verdict = reference_registration(created, options)
        if name in REFERENCE_REFUSES_CREATE:
            check(verdict["verified"] is False, f"create {name} ({meaning}): reference refuses", verdict)
        else:
            print(f"info create {name} ({meaning}): not checked by the reference; it says "
                  + ("accepted" if verdict["verified"] else verdict["error"]))
    # Duplicate keys: cbor2 (a lax decoder) reads the same map, so only a strict parser can tell.
    options = registration_options()
    duplicated = auth.unb64url(auth.create({"options": options, "mutations": ["duplicate_map_key"]})
                               ["credential"]["response"]["attestationObject"])
    check(duplicated[0] == 0xA4 and set(cbor2.loads(duplicated)) == {"fmt", "attStmt", "authData"},
          "duplicate_map_key: 4 entries declared, 3 distinct keys")


def check_get_mutations() -> None:
    options = registration_options()
    created = auth.create({"options": options})
    public_key = auth.unb64url(created["stored"]["public_key"])
    for name, meaning in auth.GET_MUTATIONS.items():
        options = authentication_options()
        asserted = auth.get({"options": options, "credential": created["stored"], "sign_count": 9,
                             "mutations": [name]})
        result = reference_assertion(asserted, options, public_key, 0)
        if name in REFERENCE_REFUSES_GET:
            check(isinstance(result, Exception), f"get {name} ({meaning}): reference refuses", result)
        else:
            print(f"info get {name} ({meaning}): not checked by the reference; it says "
                  + (str(result) if isinstance(result, Exception) else "accepted"))


def check_unknown_mutation_is_an_error() -> None:
    try:
        auth.create({"options": registration_options(), "mutations": ["wrong_tpye"]})
    except SystemExit:
        check(True, "an unknown mutation is an error")
        return
    check(False, "an unknown mutation is an error")


def main() -> None:
    for alg in ALGORITHMS:
        for flags in ({}, {"be": True}, {"be": True, "bs": True}):
            check_ceremonies(alg, flags, ORIGIN)
    check_ceremonies(auth.ES256, {}, ANDROID_ORIGIN)
    check_create_mutations()
    check_get_mutations()
    check_unknown_mutation_is_an_error()
    print(f"{len(failures)} of {checks} checks failed" if failures else f"all {checks} checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
