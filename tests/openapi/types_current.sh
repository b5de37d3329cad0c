#!/usr/bin/env bash
# The committed examples/typescript/src/api.d.ts is what openapi-typescript makes of the document
# today (the same command as its `npm run generate`), and the quickstart compiles with it under
# tsc --strict: the typed client cannot go stale.
set -euo pipefail
cd "$(dirname "$0")/../../examples/typescript"
fresh=$(mktemp --suffix .d.ts)
trap 'rm -f "$fresh"' EXIT
node_modules/.bin/openapi-typescript ../../http/openapi.json --default-non-nullable false \
  --output "$fresh" >/dev/null 2>&1
if ! diff -q src/api.d.ts "$fresh" >/dev/null; then
  diff -u src/api.d.ts "$fresh" | head -40
  echo "examples/typescript/src/api.d.ts is stale: run 'npm run generate' in examples/typescript" >&2
  exit 1
fi
node_modules/.bin/tsc --strict --noEmit
echo "api.d.ts is current and the quickstart compiles"
