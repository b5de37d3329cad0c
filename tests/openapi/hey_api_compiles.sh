#!/usr/bin/env bash
# Generates a client from the OpenAPI document with @hey-api/openapi-ts (an independent generator)
# into a temporary directory and compiles it with tsc --strict: the document must be usable by
# generators other than the one examples/typescript uses.
# Usage: hey_api_compiles.sh <openapi.json>
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
node_modules/.bin/openapi-ts --input "$1" --output "$out/client" --plugins @hey-api/client-fetch \
  @hey-api/typescript @hey-api/sdk >/dev/null
cat >"$out/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler", "strict": true,
    "lib": ["ES2022", "DOM", "DOM.Iterable"], "noEmit": true, "skipLibCheck": false
  },
  "include": ["client"]
}
JSON
node_modules/.bin/tsc -p "$out/tsconfig.json"
echo "generated and compiled: $(find "$out/client" -name '*.ts' | wc -l) files"
