#!/usr/bin/env python3
"""Writes the seeds of tests/fuzz/corpus that are made, not copied: genuine access tokens and list
cursors under the fixed keys of fuzz_cursor_token.cc (formats: http/auth_tokens.h,
projections/cursor.h), and the selector-prefixed request bodies of fuzz_json_bodies.cc from
examples/. Run from anywhere; it rewrites only the files it names."""
import base64, hashlib, hmac, json, os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")
TOKEN_KEY = b"fuzz-token-key-0123456789abcdef!"
CURSOR_KEY = b"fuzz-cursor-key-0123456789abcdef"
LISTING = b"fuzz-listing"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=")


def token(claims):
    head = b"at." + b64url(json.dumps(claims, separators=(",", ":")).encode())
    return head + b"." + b64url(hmac.new(TOKEN_KEY, head, hashlib.sha256).digest())


def cursor(position):
    message = b"\x01" + position + hashlib.sha256(LISTING).digest()
    return b64url(b"\x01" + position + hmac.new(CURSOR_KEY, message, hashlib.sha256).digest())


def write(target, name, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data)


def read(*path):
    with open(os.path.join(ROOT, *path), "rb") as f:
        return f.read()


claims = {"jti": "tok_01", "sub": "cli_fuzz", "org": "org_fuzz",
          "scope": "contracts:read contracts:create", "iat": 1795000000, "exp": 1795003600}
write("fuzz_cursor_token", "cursor-valid", b"\x00" + cursor(b"ctr_01HZY3K9Q8"))
write("fuzz_cursor_token", "cursor-empty-position", b"\x00" + cursor(b""))
write("fuzz_cursor_token", "token-valid", b"\x01" + token(claims))
write("fuzz_cursor_token", "token-no-scope", b"\x01" + token(dict(claims, scope="")))
write("fuzz_cursor_token", "token-forged", b"\x01" + token(claims)[:-4] + b"AAAA")
write("fuzz_cursor_token", "asof-position", b"\x02" + b"42")
write("fuzz_cursor_token", "asof-time", b"\x02" + b"2026-11-20T10:00:00.123+01:00")
write("fuzz_cursor_token", "list-query",
      b"\x03" + b"status=sent&limit=5&scope=all&dateField=updatedAt&from=2026-01-01T00:00:00Z&q=nda")

nda = read("examples", "requests", "create-nda.json")
bodies = {
    "create-nda": (0, nda),
    "update-data": (1, json.dumps({"data": json.loads(nda)["data"]}).encode()),
    "update-table-data": (2, b'{"tables":{}}'),
    "replace-participants": (3, json.dumps({"participants": json.loads(nda)["participants"]}).encode()),
    "update-role-bindings": (4, b'{"roleBindings":[{"templateRoleId":"party_a_signatory","participantId":"prt_FUZZ0"}]}'),
    "send": (5, b'{"signingSettings":{"expiresAt":"2026-12-20T10:00:00Z"}}'),
    "void": (6, b'{"reason":"Sent to the wrong counterparty"}'),
    "remind": (7, b'{}'),
    "create-endpoint": (8, b'{"url":"https://hooks.example.com/esign","eventTypes":["contract.completed","contract.sent"],"description":"ERP"}'),
    "update-endpoint": (9, b'{"enabled":false}'),
    "template": (10, read("examples", "templates", "mutual-nda.json")),
}
for name, (selector, body) in bodies.items():
    write("fuzz_json_bodies", name, bytes([selector]) + body)
