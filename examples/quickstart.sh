#!/usr/bin/env bash
# The README's quickstart as one script: token, create, send, status, list, then both signatures
# (Ada on the hosted signing page's API, Grace through the integrator) and the signed PDF.
# Usage: CLIENT_ID=... CLIENT_SECRET=... examples/quickstart.sh [http://127.0.0.1:8080]
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:-http://127.0.0.1:8080}
: "${CLIENT_ID:?set CLIENT_ID (printed by contractd at first start)}"
: "${CLIENT_SECRET:?set CLIENT_SECRET}"

TOKEN=$(curl -sf -X POST "$BASE/api/v1/auth/machine-token" -H 'Content-Type: application/json' \
  -d "{\"clientId\":\"$CLIENT_ID\",\"clientSecret\":\"$CLIENT_SECRET\"}" |
  sed -E 's/.*"accessToken":"([^"]+)".*/\1/')

CONTRACT=$(curl -sf -X POST "$BASE/api/v1/contracts" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -d @examples/requests/create-nda.json)
ID=$(echo "$CONTRACT" | sed -E 's/.*"id":"(ctr_[A-Z0-9]+)".*/\1/')
echo "created $ID"

curl -sf -X POST "$BASE/api/v1/contracts/$ID/send" -H "Authorization: Bearer $TOKEN" \
  -H 'Idempotency-Key: quickstart-send-1' >/dev/null
echo "sent $ID"

curl -sf "$BASE/api/v1/contracts/$ID/status" -H "Authorization: Bearer $TOKEN"
echo
curl -sf "$BASE/api/v1/contracts?status=sent&limit=5" -H "Authorization: Bearer $TOKEN"
echo

# Ada signs on the hosted page: open the link in a browser, or sign through the page's own API.
ADA=$(echo "$CONTRACT" | grep -o '"participantId":"[^"]*"' | sed -n 1p | cut -d'"' -f4)
GRACE=$(echo "$CONTRACT" | grep -o '"participantId":"[^"]*"' | sed -n 2p | cut -d'"' -f4)
URL=$(curl -sf -X POST "$BASE/api/v1/contracts/$ID/signing-sessions" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -d "{\"participantId\":\"$ADA\"}" |
  sed -E 's/.*"url":"([^"]+)".*/\1/')
echo "signing link for Ada: $URL"
curl -sf -X POST "$BASE/api/v1/hosted-signing/${URL##*/sign/}/complete" -H 'Content-Type: application/json' \
  -d '{"signatureText":"Ada Lovelace","consent":true}' >/dev/null
echo "Ada signed"

# Grace signs in the integrator's own application, which reports it.
SESSION=$(curl -sf -X POST "$BASE/api/v1/contracts/$ID/signing-sessions" \
  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d "{\"participantId\":\"$GRACE\"}" | sed -E 's/.*"sessionId":"(ses_[A-Z0-9]+)".*/\1/')
curl -sf -X POST "$BASE/api/v1/signing-sessions/$SESSION/complete" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' \
  -d "{\"signerName\":\"Grace Hopper\",\"signedAt\":\"$(date -u +%FT%TZ)\",
       \"ipAddress\":\"203.0.113.9\",\"userAgent\":\"Integrator app\",
       \"authenticationMethod\":\"sso\",\"consent\":true}" >/dev/null
echo "Grace signed"

curl -sf "$BASE/api/v1/contracts/$ID/status" -H "Authorization: Bearer $TOKEN"
echo
curl -sf "$BASE/api/v1/contracts/$ID/documents/signed-latest?download=true" \
  -H "Authorization: Bearer $TOKEN" -o "signed-$ID.pdf"
echo "signed PDF saved as signed-$ID.pdf"
