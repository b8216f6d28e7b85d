"""Checks id_tokens with PyJWT against a JWKS fetched over HTTP, as a relying party that shares no code with latchd
would: the reference verdict on what fake_issuer.py mints.

    python verify_id_token.py --jwks URL --audience AUD --issuer ISS [--hmac-key PEM_FILE] < tokens (one per line)

Prints one JSON object per token: {"valid": true, "kid", "header", "claims"} or {"valid": false, "error"}.
RS256 only, as Sign in with Apple signs; iss, aud, sub, iat and exp required. With --hmac-key it checks instead
that an HS256 token's MAC is right under that key (so a test knows an algorithm-confusion token is well made).
"""
import argparse
import base64
import hashlib
import hmac
import json
import sys

import jwt


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jwks", required=True)
    parser.add_argument("--audience", required=True)
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--hmac-key", help="a file whose bytes are the HS256 key to check the MAC with")
    args = parser.parse_args()
    keys = jwt.PyJWKClient(args.jwks, cache_keys=False, cache_jwk_set=False)

    for token in sys.stdin.read().split():
        try:
            if args.hmac_key:
                with open(args.hmac_key, "rb") as file:
                    secret = file.read()
                signing_input, _, signature = token.rpartition(".")
                expected = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
                given = base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4))
                if not hmac.compare_digest(expected, given):
                    raise ValueError("the HMAC does not match")
                result = {"valid": True, "header": jwt.get_unverified_header(token),
                          "claims": jwt.decode(token, options={"verify_signature": False})}
            else:
                key = keys.get_signing_key_from_jwt(token)
                claims = jwt.decode(
                    token, key.key, algorithms=["RS256"], audience=args.audience, issuer=args.issuer,
                    options={"require": ["iss", "aud", "sub", "iat", "exp"]})
                result = {"valid": True, "kid": key.key_id, "header": jwt.get_unverified_header(token),
                          "claims": claims}
        except Exception as error:  # every refusal is an answer here, not a crash
            result = {"valid": False, "error": f"{type(error).__name__}: {error}"}
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
