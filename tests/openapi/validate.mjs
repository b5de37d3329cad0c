// Validates the service's OpenAPI document: against the OpenAPI 3.1 schema (an independent
// implementation, so the document is not only checked by our own parser), then a few rules the
// schema cannot express: every local $ref resolves, operationIds are unique, and every path
// template variable is declared as a path parameter.
// Usage: node validate.mjs <openapi.json>. Exits non-zero with every problem printed.
import { readFile } from "node:fs/promises";

const file = process.argv[2];
if (!file) {
  console.error("usage: node validate.mjs <openapi.json>");
  process.exit(2);
}

let Validator;
try {
  ({ Validator } = await import("@seriousme/openapi-schema-validator"));
} catch (e) {
  console.error(`cannot load the validator (${e.code ?? e.message}); run 'npm ci' in tests/openapi`);
  process.exit(2);
}

const doc = JSON.parse(await readFile(file, "utf8"));
const problems = [];

const validator = new Validator();
const result = await validator.validate(doc);
if (!result.valid) {
  problems.push(`not a valid OpenAPI document:\n${JSON.stringify(result.errors, null, 2)}`);
} else if (validator.version !== "3.1") {
  problems.push(`expected OpenAPI 3.1, found ${validator.version}`);
}

function resolve(pointer) {
  let node = doc;
  for (const raw of pointer.replace(/^#\//, "").split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

function walk(node, path) {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walk(item, `${path}[${i}]`));
  } else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        if (!value.startsWith("#/")) problems.push(`${path}: external $ref ${value}`);
        else if (resolve(value) === undefined) problems.push(`${path}: unresolved $ref ${value}`);
      } else {
        walk(value, `${path}.${key}`);
      }
    }
  }
}
walk(doc, "$");

const deref = (node) => (node && node.$ref ? resolve(node.$ref) : node);
const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const seen = new Map();
for (const [path, item] of Object.entries(doc.paths ?? {})) {
  const variables = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  for (const method of methods) {
    const op = item[method];
    if (!op) continue;
    const where = `${method.toUpperCase()} ${path}`;
    if (seen.has(op.operationId)) {
      problems.push(`${where}: operationId ${op.operationId} also used by ${seen.get(op.operationId)}`);
    }
    seen.set(op.operationId, where);
    const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref);
    for (const name of variables) {
      if (!params.some((p) => p && p.in === "path" && p.name === name)) {
        problems.push(`${where}: path variable {${name}} is not declared as a path parameter`);
      }
    }
  }
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`${file}: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`${file}: valid OpenAPI ${validator.version}, ${seen.size} operations`);
