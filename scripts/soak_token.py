"""Signed room tokens for the soak: HS256 JWTs as `camhub token` makes them (docs/SECURITY.md),
made in-process so that thousands of refreshes do not start thousands of processes."""

import base64
import hashlib
import hmac
import json
import time


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def make_token(secret, room, role, ttl):
    """A token for `room` granting `role`, expiring `ttl` seconds (whole) from now on this machine's clock."""
    header = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    claims = {"room": room, "role": role, "exp": int(time.time() + ttl)}
    payload = _b64(json.dumps(claims, separators=(",", ":")).encode())
    signature = hmac.new(secret, f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{_b64(signature)}"
