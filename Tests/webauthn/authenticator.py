"""A software WebAuthn authenticator and client (platform + browser in one), written for the passkey tests with
`cryptography` and `cbor2` only: it shares no code with latchd's WebAuthn parser, so what latchd accepts from it is
what a real client would send, and what it refuses is refused for the reason a test meant.

One command per run, one JSON object on standard input, one JSON object on standard output:

    python authenticator.py create              < {"options": <publicKey of registration/options>, "origin": ...}
    python authenticator.py get                 < {"options": <publicKey of authentication/options>,
                                                    "credential": <"stored" of a create>, "origin": ...}
    python authenticator.py verify-registration < {"credential": <RegistrationResponseJSON>, "challenge": ...,
                                                    "rp_id": ..., "origins": [...], "algorithms": [...]}

`create` answers {"credential": RegistrationResponseJSON, "stored": {...}}: the response to POST to latchd, and
what the authenticator keeps (private key as PKCS#8 PEM, credential id, user handle, algorithm, backup flags) for
later `get`s. `get` answers {"credential": AuthenticationResponseJSON}. `verify-registration` runs Duo's
py_webauthn (`verify_registration_response`, user verification required) on a registration and answers
{"verified": true, ...} or {"verified": false, "error": ...}: the reference verifier, which must accept every
registration latchd accepts.

Inputs common to create and get:
    origin      clientDataJSON.origin (default "https://" + the RP ID)
    flags       {"up", "uv", "be", "bs"}: booleans, default up and uv set, be and bs clear
    sign_count  the authenticator data's counter (default 0)
    mutations   names from CREATE_MUTATIONS / GET_MUTATIONS: each breaks the response in one way; an unknown name
                is an error, so a typo in a test cannot pass as a mutation that latchd "refused"
    credential_id   base64url: the credential id to use instead (create: in the attested data and rawId; get: rawId
                    only, e.g. another user's credential, still signed with this credential's key)
create only: alg (-7, -8, -257; default -7), transports (default ["internal", "hybrid"]), aaguid (hex, 16 bytes,
default zeros). get only: user_handle (base64url, instead of the stored one; null sends none).

All binary JSON fields are base64url without padding (WebAuthn L3 §5.1 toJSON()).
"""
import base64
import hashlib
import json
import os
import sys

import cbor2
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa

ES256, EDDSA, RS256, ES384 = -7, -8, -257, -35

# Authenticator data flags (WebAuthn L3 §6.1).
UP, UV, BE, BS, AT, ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80

FOREIGN_ORIGIN = "https://evil.example"
FOREIGN_RP_ID = "evil.example"

# Each mutation breaks one thing; latchd must refuse the result (400 passkey_rejected).
CREATE_MUTATIONS = {
    "wrong_type": "clientDataJSON.type is webauthn.get",
    "wrong_challenge": "clientDataJSON.challenge is 32 fresh random bytes",
    "foreign_origin": "clientDataJSON.origin is " + FOREIGN_ORIGIN,
    "wrong_rp_id_hash": "rpIdHash is SHA-256 of " + FOREIGN_RP_ID,
    "up_clear": "UP flag clear",
    "uv_clear": "UV flag clear",
    "bs_without_be": "BS set, BE clear",
    "at_clear": "AT flag clear and no attested credential data",
    "trailing_auth_data": "two bytes after the attested credential data (ED clear)",
    "unoffered_alg": "an ES384 (-35) key on P-384, an algorithm latchd does not offer",
    "alg_key_mismatch": "an OKP Ed25519 key labelled alg -7 (ES256)",
    "off_curve": "an ES256 key whose point is not on P-256 (y + 1)",
    "small_rsa": "an RS256 key of 1024 bits",
    "duplicate_map_key": "attestationObject's map has \"fmt\" twice (same value: only a strict parser sees it)",
    "duplicate_cose_key": "the COSE key's map has label 3 (alg) twice (same value)",
    "indefinite_map": "attestationObject is an indefinite-length CBOR map",
    "trailing_bytes": "a byte after the attestationObject's CBOR item",
    "none_with_att_stmt": "fmt none with a non-empty attStmt",
    "raw_id_mismatch": "rawId and id are not the attested credential id",
    "empty_client_data_challenge": "clientDataJSON.challenge is the empty string",
}

GET_MUTATIONS = {
    "wrong_type": "clientDataJSON.type is webauthn.create",
    "wrong_challenge": "clientDataJSON.challenge is 32 fresh random bytes",
    "foreign_origin": "clientDataJSON.origin is " + FOREIGN_ORIGIN,
    "wrong_rp_id_hash": "rpIdHash is SHA-256 of " + FOREIGN_RP_ID,
    "up_clear": "UP flag clear",
    "uv_clear": "UV flag clear",
    "bs_without_be": "BS set, BE clear",
    "bad_signature": "the signature's last byte flipped",
    "signed_other_data": "a valid signature over other client data than the one sent",
    "trailing_auth_data": "two bytes after the authenticator data (ED clear), covered by the signature",
}


def b64url(data: bytes) -> str:
    """base64url without padding, as WebAuthn's JSON encodes bytes."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of a base64url string with or without padding."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def cbor_map(pairs) -> bytes:
    """A definite-length CBOR map of (key, value) pairs in the given order, duplicates kept: what cbor2 cannot
    emit (it writes a dict). Keys and values are encoded by cbor2; only the map header is built here."""
    count = len(pairs)
    if count < 24:
        header = bytes([0xA0 | count])
    else:
        header = bytes([0xB8, count])
    return header + b"".join(cbor2.dumps(key) + cbor2.dumps(value) for key, value in pairs)


def cbor_indefinite_map(pairs) -> bytes:
    """An indefinite-length CBOR map (0xbf ... 0xff), which WebAuthn's CTAP2 canonical encoding forbids."""
    return b"\xbf" + b"".join(cbor2.dumps(key) + cbor2.dumps(value) for key, value in pairs) + b"\xff"


def canonical_pairs(mapping: dict):
    """The CTAP2 canonical order of a map's entries (shorter encoded key first, then bytewise)."""
    return sorted(mapping.items(), key=lambda item: (len(cbor2.dumps(item[0])), cbor2.dumps(item[0])))


def generate_key(alg: int, mutations: set):
    """A new private key for `alg` (the mutations may ask for a P-384, Ed25519 or 1024-bit RSA key instead)."""
    if "unoffered_alg" in mutations:
        return ec.generate_private_key(ec.SECP384R1())
    if alg == ES256:
        if "alg_key_mismatch" in mutations:
            return ed25519.Ed25519PrivateKey.generate()
        return ec.generate_private_key(ec.SECP256R1())
    if alg == EDDSA:
        return ed25519.Ed25519PrivateKey.generate()
    if alg == RS256:
        return rsa.generate_private_key(public_exponent=65537, key_size=1024 if "small_rsa" in mutations else 2048)
    raise SystemExit(f"unsupported alg {alg}")


def cose_key(private_key, alg: int, mutations: set) -> bytes:
    """The credential public key as a COSE_Key (RFC 9053), canonical CBOR unless a mutation says otherwise."""
    public = private_key.public_key()
    if isinstance(public, ec.EllipticCurvePublicKey):
        numbers = public.public_numbers()
        size = (public.curve.key_size + 7) // 8
        y = numbers.y
        if "off_curve" in mutations:
            y = (y + 1) % (2**256 - 2**224 + 2**192 + 2**96 - 1)
        crv = 2 if isinstance(public.curve, ec.SECP384R1) else 1
        key = {1: 2, 3: ES384 if crv == 2 else alg, -1: crv,
               -2: numbers.x.to_bytes(size, "big"), -3: y.to_bytes(size, "big")}
    elif isinstance(public, ed25519.Ed25519PublicKey):
        raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        key = {1: 1, 3: alg, -1: 6, -2: raw}
    else:
        numbers = public.public_numbers()
        key = {1: 3, 3: alg, -1: numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big"),
               -2: numbers.e.to_bytes(3, "big")}
    pairs = canonical_pairs(key)
    if "duplicate_cose_key" in mutations:
        pairs = pairs[:2] + [(3, key[3])] + pairs[2:]
    return cbor_map(pairs)


def sign(private_key, alg: int, data: bytes) -> bytes:
    """The assertion signature over `data` (authenticatorData || SHA-256(clientDataJSON)), per COSE `alg`: ECDSA
    DER, raw Ed25519, or RSASSA-PKCS1-v1_5."""
    if alg == ES256:
        return private_key.sign(data, ec.ECDSA(hashes.SHA256()))
    if alg == EDDSA:
        return private_key.sign(data)
    if alg == RS256:
        return private_key.sign(data, padding.PKCS1v15(), hashes.SHA256())
    raise SystemExit(f"unsupported alg {alg}")


def flag_byte(flags: dict, mutations: set) -> int:
    """The flags byte: UP, UV, BE, BS from `flags` (UP and UV default set), then the mutations' changes."""
    byte = 0
    byte |= UP if flags.get("up", True) else 0
    byte |= UV if flags.get("uv", True) else 0
    byte |= BE if flags.get("be", False) else 0
    byte |= BS if flags.get("bs", False) else 0
    if "up_clear" in mutations:
        byte &= ~UP
    if "uv_clear" in mutations:
        byte &= ~UV
    if "bs_without_be" in mutations:
        byte = (byte | BS) & ~BE
    return byte


def client_data(kind: str, challenge: str, origin: str, mutations: set) -> bytes:
    """clientDataJSON as a browser serializes it (WebAuthn L3 §5.8.1.1: type, challenge, origin, crossOrigin)."""
    if "wrong_type" in mutations:
        kind = "webauthn.get" if kind == "webauthn.create" else "webauthn.create"
    if "wrong_challenge" in mutations:
        challenge = b64url(os.urandom(32))
    if "empty_client_data_challenge" in mutations:
        challenge = ""
    if "foreign_origin" in mutations:
        origin = FOREIGN_ORIGIN
    text = json.dumps({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False},
                      separators=(",", ":"))
    return text.encode("utf-8")


def rp_id_hash(rp_id: str, mutations: set) -> bytes:
    return hashlib.sha256((FOREIGN_RP_ID if "wrong_rp_id_hash" in mutations else rp_id).encode("utf-8")).digest()


def check_mutations(mutations: list, known: dict) -> set:
    unknown = [name for name in mutations if name not in known]
    if unknown:
        raise SystemExit(f"unknown mutations {unknown}; known: {sorted(known)}")
    return set(mutations)


def private_key_pem(private_key) -> str:
    return private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()).decode("ascii")


def create(request: dict) -> dict:
    """navigator.credentials.create(): a new discoverable credential for options.user on options.rp.id, with
    attestation "none"."""
    options = request["options"]
    mutations = check_mutations(request.get("mutations", []), CREATE_MUTATIONS)
    rp_id = options["rp"]["id"]
    origin = request.get("origin") or "https://" + rp_id
    alg = request.get("alg", ES256)
    flags = request.get("flags", {})
    sign_count = request.get("sign_count", 0)
    aaguid = bytes.fromhex(request.get("aaguid", "00" * 16))
    transports = request.get("transports", ["internal", "hybrid"])
    credential_id = unb64url(request["credential_id"]) if request.get("credential_id") else os.urandom(32)

    private_key = generate_key(alg, mutations)
    byte = flag_byte(flags, mutations)
    auth_data = rp_id_hash(rp_id, mutations) + bytes([byte | AT]) + sign_count.to_bytes(4, "big")
    if "at_clear" in mutations:
        auth_data = auth_data[:32] + bytes([byte]) + auth_data[33:]
    else:
        auth_data += aaguid + len(credential_id).to_bytes(2, "big") + credential_id + cose_key(private_key, alg,
                                                                                                 mutations)
    if "trailing_auth_data" in mutations:
        auth_data += b"\x00\x00"

    att_stmt = {"sig": b"\x00" * 8} if "none_with_att_stmt" in mutations else {}
    pairs = [("fmt", "none"), ("attStmt", att_stmt), ("authData", auth_data)]
    if "duplicate_map_key" in mutations:
        attestation_object = cbor_map([("fmt", "none")] + pairs)
    elif "indefinite_map" in mutations:
        attestation_object = cbor_indefinite_map(pairs)
    else:
        attestation_object = cbor_map(pairs)
    if "trailing_bytes" in mutations:
        attestation_object += b"\x00"

    raw_id = os.urandom(32) if "raw_id_mismatch" in mutations else credential_id
    client_data_json = client_data("webauthn.create", options["challenge"], origin, mutations)
    credential = {
        "id": b64url(raw_id),
        "rawId": b64url(raw_id),
        "type": "public-key",
        "response": {
            "clientDataJSON": b64url(client_data_json),
            "attestationObject": b64url(attestation_object),
            "transports": transports,
        },
        "authenticatorAttachment": "platform",
        "clientExtensionResults": {},
    }
    stored = {
        "private_key_pem": private_key_pem(private_key),
        "credential_id": b64url(credential_id),
        "user_handle": options["user"]["id"],
        "alg": alg,
        "rp_id": rp_id,
        "be": bool(byte & BE),
        "bs": bool(byte & BS),
        "public_key": b64url(cose_key(private_key, alg, set())) if "at_clear" not in mutations else None,
    }
    return {"credential": credential, "stored": stored}


def get(request: dict) -> dict:
    """navigator.credentials.get() with the stored credential: an assertion over options.challenge."""
    options = request["options"]
    stored = request["credential"]
    mutations = check_mutations(request.get("mutations", []), GET_MUTATIONS)
    rp_id = options.get("rpId") or stored["rp_id"]
    origin = request.get("origin") or "https://" + rp_id
    flags = {"be": stored.get("be", False), "bs": stored.get("bs", False), **request.get("flags", {})}
    sign_count = request.get("sign_count", 0)
    private_key = serialization.load_pem_private_key(stored["private_key_pem"].encode("ascii"), password=None)

    auth_data = rp_id_hash(rp_id, mutations) + bytes([flag_byte(flags, mutations)]) + sign_count.to_bytes(4, "big")
    if "trailing_auth_data" in mutations:
        auth_data += b"\x00\x00"
    client_data_json = client_data("webauthn.get", options["challenge"], origin, mutations)
    signed_client_data = client_data_json
    if "signed_other_data" in mutations:
        signed_client_data = client_data("webauthn.get", b64url(os.urandom(32)), origin, set())
    signature = sign(private_key, stored["alg"], auth_data + hashlib.sha256(signed_client_data).digest())
    if "bad_signature" in mutations:
        signature = signature[:-1] + bytes([signature[-1] ^ 0x01])

    credential_id = request.get("credential_id") or stored["credential_id"]
    user_handle = request["user_handle"] if "user_handle" in request else stored["user_handle"]
    response = {
        "clientDataJSON": b64url(client_data_json),
        "authenticatorData": b64url(auth_data),
        "signature": b64url(signature),
    }
    if user_handle is not None:
        response["userHandle"] = user_handle
    credential = {
        "id": credential_id,
        "rawId": credential_id,
        "type": "public-key",
        "response": response,
        "authenticatorAttachment": "platform",
        "clientExtensionResults": {},
    }
    return {"credential": credential}


def verify_registration(request: dict) -> dict:
    """py_webauthn's verdict on a registration, with user verification required and only the offered
    algorithms supported: what a relying party built on the reference library would decide."""
    from webauthn import verify_registration_response
    from webauthn.helpers.cose import COSEAlgorithmIdentifier

    try:
        verified = verify_registration_response(
            credential=request["credential"],
            expected_challenge=unb64url(request["challenge"]),
            expected_rp_id=request["rp_id"],
            expected_origin=request["origins"],
            require_user_verification=True,
            supported_pub_key_algs=[COSEAlgorithmIdentifier(alg) for alg in request.get("algorithms", [-7, -8, -257])],
        )
    except Exception as error:  # py_webauthn raises its own exceptions, and cbor2's or cryptography's through them
        return {"verified": False, "error": f"{type(error).__name__}: {error}"}
    return {
        "verified": True,
        "credential_id": b64url(verified.credential_id),
        "public_key": b64url(verified.credential_public_key),
        "sign_count": verified.sign_count,
        "fmt": verified.fmt.value if hasattr(verified.fmt, "value") else str(verified.fmt),
        "backup_eligible": verified.credential_device_type.value == "multi_device",
        "backed_up": verified.credential_backed_up,
        "user_verified": verified.user_verified,
    }


COMMANDS = {"create": create, "get": get, "verify-registration": verify_registration}


def main() -> None:
    if len(sys.argv) != 2 or sys.argv[1] not in COMMANDS:
        raise SystemExit(f"usage: authenticator.py {{{'|'.join(COMMANDS)}}} < request.json")
    request = json.load(sys.stdin)
    print(json.dumps(COMMANDS[sys.argv[1]](request)))


if __name__ == "__main__":
    main()
