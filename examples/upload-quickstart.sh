#!/usr/bin/env bash
# Bring your own PDF: upload it, make a contract from it (Ada signs where the document says
# {{signature:1}}, Grace in a box placed by coordinates, her signing date where it says
# {{date_signed:2}}), then both signatures and the signed PDF.
# Usage: CLIENT_ID=... CLIENT_SECRET=... examples/upload-quickstart.sh [http://127.0.0.1:8080]
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:-http://127.0.0.1:8080}
: "${CLIENT_ID:?set CLIENT_ID (printed by contractd at first start)}"
: "${CLIENT_SECRET:?set CLIENT_SECRET}"

TOKEN=$(curl -sf -X POST "$BASE/api/v1/auth/machine-token" -H 'Content-Type: application/json' \
  -d "{\"clientId\":\"$CLIENT_ID\",\"clientSecret\":\"$CLIENT_SECRET\"}" |
  sed -E 's/.*"accessToken":"([^"]+)".*/\1/')

# The upload answers with its pages, the text tags it found and what it removed.
UPLOAD=$(curl -sf -X POST "$BASE/api/v1/documents?name=consulting-agreement.pdf" \
  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/pdf' \
  --data-binary @examples/documents/consulting-agreement.pdf)
DOCUMENT=$(echo "$UPLOAD" | sed -E 's/.*"documentId":"(doc_[A-Za-z0-9]+)".*/\1/')
echo "uploaded $DOCUMENT with $(echo "$UPLOAD" | grep -o '"text":"{{[^"]*}}"' | wc -l) text tags"

CONTRACT=$(sed "s/DOCUMENT_ID/$DOCUMENT/" examples/requests/create-from-upload.json |
  curl -sf -X POST "$BASE/api/v1/contracts" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' --data-binary @-)
ID=$(echo "$CONTRACT" | sed -E 's/.*"id":"(ctr_[A-Z0-9]+)".*/\1/')
echo "created and sent $ID"
# The participants' ids, in request order (the placed fields before them name them too).
PARTICIPANTS=$(echo "$CONTRACT" | sed -E 's/.*"participants":\[//')
ADA=$(echo "$PARTICIPANTS" | grep -o '"participantId":"[^"]*"' | sed -n 1p | cut -d'"' -f4)
GRACE=$(echo "$PARTICIPANTS" | grep -o '"participantId":"[^"]*"' | sed -n 2p | cut -d'"' -f4)

URL=$(curl -sf -X POST "$BASE/api/v1/contracts/$ID/signing-sessions" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -d "{\"participantId\":\"$ADA\"}" |
  sed -E 's/.*"url":"([^"]+)".*/\1/')
echo "signing link for Ada: $URL"
curl -sf -X POST "$BASE/api/v1/hosted-signing/${URL##*/sign/}/complete" -H 'Content-Type: application/json' \
  -d '{"signatureText":"Ada Lovelace","consent":true}' >/dev/null
echo "Ada signed"

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
