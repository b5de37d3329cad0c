#!/usr/bin/env bash
# The README's quickstart as one script: token, create, send, status, list, then both signatures
# (Ada on the hosted signing page's API, Grace through the integrator) and the signed PDF.
# Usage: CLIENT_ID=... CLIENT_SECRET=... [OUTBOX=./data/outbox] examples/quickstart.sh [http://127.0.0.1:8080]
set -euo pipefail
cd "$(dirname "$0")/.."
. examples/signing-steps.sh "$@"
get_token

CONTRACT=$(curl -sf -X POST "$BASE/api/v1/contracts" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -d @examples/requests/create-nda.json)
ID=$(echo "$CONTRACT" | sed -E 's/.*"id":"(ctr_[A-Z0-9]+)".*/\1/')
echo "created $ID"

mark_outbox
curl -sf -X POST "$BASE/api/v1/contracts/$ID/send" -H "Authorization: Bearer $TOKEN" \
  -H 'Idempotency-Key: quickstart-send-1' >/dev/null
echo "sent $ID"

curl -sf "$BASE/api/v1/contracts/$ID/status" -H "Authorization: Bearer $TOKEN"
echo
curl -sf "$BASE/api/v1/contracts?status=sent&limit=5" -H "Authorization: Bearer $TOKEN"
echo

participant_ids "$CONTRACT"
sign_both "$ID" ada@acme.example
save_signed_pdf "$ID"
