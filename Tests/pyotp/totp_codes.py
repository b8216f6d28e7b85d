"""Reads an otpauth URI the way an authenticator app does, with code nobody in this project wrote: pyotp from PyPI
(pyotp.parse_uri). Prints what it understood and the codes it would show at the given RFC 6238 time steps.

    python totp_codes.py --uri 'otpauth://totp/...' --step 56789012 --step 56789013 ...

Prints one JSON object: {"issuer", "name", "secret", "secret_hex", "digits", "interval", "algorithm",
"codes": {"<step>": "123456"}}; secret_hex is the key pyotp decoded from the base32 secret (byte_secret()).
The steps come from the caller, so every code of one test is computed from one time reference (the caller's), never
from the moment this process happens to run. Used by Tests/LatchIntegrationTests/SecondFactor (PyOTPAuthenticator.swift).
"""
import argparse
import json

import pyotp


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--uri", required=True)
    parser.add_argument("--step", type=int, action="append", default=[], help="an RFC 6238 time step (T)")
    args = parser.parse_args()

    totp = pyotp.parse_uri(args.uri)
    if not isinstance(totp, pyotp.TOTP):
        raise SystemExit(f"not a TOTP URI: {type(totp).__name__}")
    result = {
        "issuer": totp.issuer,
        "name": totp.name,
        "secret": totp.secret,
        "secret_hex": totp.byte_secret().hex(),
        "digits": totp.digits,
        "interval": totp.interval,
        "algorithm": totp.digest().name,
        # at(t) is the code for the step containing t: the step's first second is as good as any.
        "codes": {str(step): totp.at(step * totp.interval) for step in args.step},
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
