# The steps both example scripts share, sourced by them: the token, the two participants' ids,
# both signatures (Ada on the hosted signing page's API, Grace through the integrator) and the
# signed PDF. Takes the service's address as its argument (default http://127.0.0.1:8080) and
# the demo client's CLIENT_ID and CLIENT_SECRET from the environment, and OUTBOX, the service's
# mail files (default ./data/outbox, where `scripts/dev.sh start` has them); sets BASE, TOKEN, ADA
# and GRACE.

BASE=${1:-http://127.0.0.1:8080}
OUTBOX=${OUTBOX:-./data/outbox}
: "${CLIENT_ID:?set CLIENT_ID (printed by contractd at first start)}"
: "${CLIENT_SECRET:?set CLIENT_SECRET}"

get_token() {
  TOKEN=$(curl -sf -X POST "$BASE/api/v1/auth/machine-token" -H 'Content-Type: application/json' \
    -d "{\"clientId\":\"$CLIENT_ID\",\"clientSecret\":\"$CLIENT_SECRET\"}" |
    sed -E 's/.*"accessToken":"([^"]+)".*/\1/')
}

# The first two participants' ids of a contract's JSON, in request order.
participant_ids() {
  local participants
  participants=$(echo "$1" | sed -E 's/.*"participants":\[//')
  ADA=$(echo "$participants" | grep -o '"participantId":"[^"]*"' | sed -n 1p | cut -d'"' -f4)
  GRACE=$(echo "$participants" | grep -o '"participantId":"[^"]*"' | sed -n 2p | cut -d'"' -f4)
}

# A file that marks the moment before a send: only mails written after it are looked at.
mark_outbox() {
  SENT_MARK=$(mktemp)
}

# Ada signs on the hosted page through the link she was mailed at the send (open it in a browser,
# or sign through the page's own API); then Grace signs in the integrator's own application,
# which reports it. Takes the contract's id and Ada's address.
sign_both() {
  local id=$1 ada_email=$2 url session
  url=$(NEWER_THAN=$SENT_MARK examples/mailed-link.sh "$ada_email" "$OUTBOX")
  rm -f "$SENT_MARK"
  echo "signing link for Ada, from her mail: $url"
  curl -sf -X POST "$BASE/api/v1/hosted-signing/${url##*/sign/}/complete" -H 'Content-Type: application/json' \
    -d '{"signatureText":"Ada Lovelace","consent":true}' >/dev/null
  echo "Ada signed"
  session=$(curl -sf -X POST "$BASE/api/v1/contracts/$id/signing-sessions" \
    -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d "{\"participantId\":\"$GRACE\"}" | sed -E 's/.*"sessionId":"(ses_[A-Z0-9]+)".*/\1/')
  curl -sf -X POST "$BASE/api/v1/signing-sessions/$session/complete" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' \
    -d "{\"signerName\":\"Grace Hopper\",\"signedAt\":\"$(date -u +%FT%TZ)\",
         \"ipAddress\":\"203.0.113.9\",\"userAgent\":\"Integrator app\",
         \"authenticationMethod\":\"sso\",\"consent\":true}" >/dev/null
  echo "Grace signed"
}

# The contract's status, then its signed PDF saved as signed-<id>.pdf.
save_signed_pdf() {
  local id=$1
  curl -sf "$BASE/api/v1/contracts/$id/status" -H "Authorization: Bearer $TOKEN"
  echo
  curl -sf "$BASE/api/v1/contracts/$id/documents/signed-latest?download=true" \
    -H "Authorization: Bearer $TOKEN" -o "signed-$id.pdf"
  echo "signed PDF saved as signed-$id.pdf"
}
