#!/usr/bin/env bash
# Prints the signing link of the newest mail to ADDRESS in an outbox of .eml files: contractd
# without --smtp-url writes each mail as <data-dir>/outbox/<Message-ID>.eml. Waits up to 30 s for
# the mail to arrive (the outbox sends a moment after the event). With NEWER_THAN=FILE, only mails
# written after that file count.
# Usage: examples/mailed-link.sh ADDRESS [OUTBOX]     (OUTBOX defaults to ./data/outbox)
set -euo pipefail
address=${1:?usage: examples/mailed-link.sh ADDRESS [OUTBOX]}
outbox=${2:-./data/outbox}

for _ in $(seq 300); do
  # Newest first; Message-IDs hold no spaces, so the names split cleanly.
  for file in $(ls -t "$outbox"/*.eml 2>/dev/null); do
    if [ -n "${NEWER_THAN:-}" ] && ! [ "$file" -nt "$NEWER_THAN" ]; then break; fi
    grep -i '^To:' "$file" | grep -qiF "$address" || continue
    # The text is quoted-printable: a long line may be split by "=" at its end.
    link=$(sed -z 's/=\r\n//g' "$file" | grep -aoE 'https?://[^" <>]*/sign/[A-Za-z0-9_-]+' | head -1)
    if [ -n "$link" ]; then
      echo "$link"
      exit 0
    fi
  done
  sleep 0.1
done
echo "no mail with a signing link to $address in $outbox" >&2
exit 1
