#!/usr/bin/env bash
# Bring your own PDF: upload it, make a contract from it (Ada signs where the document says
# {{signature:1}}, Grace in a box placed by coordinates, her signing date where it says
# {{date_signed:2}}), then both signatures and the signed PDF.
# Usage: CLIENT_ID=... CLIENT_SECRET=... [OUTBOX=./data/outbox] examples/upload-quickstart.sh [http://127.0.0.1:8080]
set -euo pipefail
cd "$(dirname "$0")/.."
. examples/signing-steps.sh "$@"
get_token

# The upload answers with its pages, the text tags it found and what it removed.
UPLOAD=$(curl -sf -X POST "$BASE/api/v1/documents?name=consulting-agreement.pdf" \
  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/pdf' \
  --data-binary @examples/documents/consulting-agreement.pdf)
DOCUMENT=$(echo "$UPLOAD" | sed -E 's/.*"documentId":"(doc_[A-Za-z0-9]+)".*/\1/')
echo "uploaded $DOCUMENT with $(echo "$UPLOAD" | grep -o '"text":"{{[^"]*}}"' | wc -l) text tags"

mark_outbox
CONTRACT=$(sed "s/DOCUMENT_ID/$DOCUMENT/" examples/requests/create-from-upload.json |
  curl -sf -X POST "$BASE/api/v1/contracts" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' --data-binary @-)
ID=$(echo "$CONTRACT" | sed -E 's/.*"id":"(ctr_[A-Z0-9]+)".*/\1/')
echo "created and sent $ID"
# The placed fields name the participants too: their ids are read from the participants.
participant_ids "$CONTRACT"
sign_both "$ID" ada@example.com
save_signed_pdf "$ID"
