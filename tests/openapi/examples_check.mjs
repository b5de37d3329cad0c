// Every example of the OpenAPI document validates against the schema of the place that uses it:
// the named examples of media types, parameters and headers (inline or `$ref` to
// components/examples), their single `example`, and the `examples` arrays of schemas. The schemas
// are closed as for the wire check (closed_schemas.mjs), so an example with a member the document
// does not describe fails too. Every entry of components/examples must be used somewhere.
// Usage: node examples_check.mjs <openapi.json>. Exits non-zero with every problem printed.
import { readFile } from "node:fs/promises";
import { closedValidator, pointer, ROOT_ID } from "./closed_schemas.mjs";

const file = process.argv[2];
if (!file) {
  console.error("usage: node examples_check.mjs <openapi.json>");
  process.exit(2);
}
const doc = JSON.parse(await readFile(file, "utf8"));
const ajv = closedValidator(doc);
const problems = [];
const used = new Set();
let checked = 0;

// Members of a schema whose values are data, not schemas: never walked as schemas.
const DATA = new Set(["examples", "example", "const", "enum", "default"]);
const EXAMPLE_PREFIX = "#/components/examples/";

function check(schemaPath, value, where) {
  const validate = ajv.compile({ $ref: ROOT_ID + pointer(...schemaPath) });
  checked++;
  if (validate(value)) return;
  const errors = validate.errors.slice(0, 8).map(
      (e) => `    ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
  problems.push(`${where}: does not match ${pointer(...schemaPath)}\n${errors.join("\n")}`);
}

// An Example object, or a $ref to one of components/examples: its value.
function exampleValue(example, where) {
  if (example && typeof example.$ref === "string") {
    if (!example.$ref.startsWith(EXAMPLE_PREFIX)) {
      problems.push(`${where}: $ref ${example.$ref} is not under components/examples`);
      return undefined;
    }
    const name = example.$ref.slice(EXAMPLE_PREFIX.length);
    used.add(name);
    example = doc.components.examples?.[name];
    if (!example) {
      problems.push(`${where}: no example ${name}`);
      return undefined;
    }
  }
  if (!example || !("value" in example)) {
    problems.push(`${where}: an example without a value (externalValue is not used here)`);
    return undefined;
  }
  return example.value;
}

// A schema at `path`: the `examples` arrays in it and in every subschema.
function walkSchema(node, path) {
  if (Array.isArray(node)) return node.forEach((n, i) => walkSchema(n, [...path, i]));
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node.examples)) {
    node.examples.forEach((value, i) =>
      check(path, value, `${pointer(...path)}/examples/${i}`));
  }
  for (const [key, value] of Object.entries(node)) {
    if (DATA.has(key)) continue;
    if (key === "properties" || key === "patternProperties" || key === "$defs") {
      for (const [name, sub] of Object.entries(value)) walkSchema(sub, [...path, key, name]);
    } else {
      walkSchema(value, [...path, key]);
    }
  }
}

// Any other part of the document: media types, parameters and headers carry `schema` with
// `example` or `examples` beside it.
function walk(node, path) {
  if (Array.isArray(node)) return node.forEach((n, i) => walk(n, [...path, i]));
  if (node === null || typeof node !== "object") return;
  if (node.schema && typeof node.schema === "object") {
    const schemaPath = [...path, "schema"];
    if ("example" in node) check(schemaPath, node.example, pointer(...path, "example"));
    for (const [name, example] of Object.entries(node.examples ?? {})) {
      const where = pointer(...path, "examples", name);
      const value = exampleValue(example, where);
      if (value !== undefined) check(schemaPath, value, where);
    }
    walkSchema(node.schema, schemaPath);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "schema" || key === "examples" || key === "example") continue;
    walk(value, [...path, key]);
  }
}

for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
  walkSchema(schema, ["components", "schemas", name]);
}
for (const part of ["paths", "webhooks"]) walk(doc[part] ?? {}, [part]);
for (const part of ["responses", "requestBodies", "parameters", "headers"]) {
  walk(doc.components?.[part] ?? {}, ["components", part]);
}
for (const name of Object.keys(doc.components?.examples ?? {})) {
  if (!used.has(name)) problems.push(`components/examples/${name}: used nowhere, so never checked`);
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(`${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`${checked} examples match their schemas; every one of components/examples is used`);
