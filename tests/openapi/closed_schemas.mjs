// The OpenAPI document's schemas as Ajv (JSON Schema 2020-12) validators, closed: every object
// schema that does not say otherwise gets `unevaluatedProperties: false`, so a member the wire
// sends but the document does not describe fails instead of passing quietly.
//
// What is closed: each named schema and each schema of a response, request or webhook, and every
// object nested in them. Subschemas of allOf/if/then/else/not describe part of an object, so they
// stay open (a $ref there is inlined as an open copy) and their parent's closing sees through
// them; a $ref branch of oneOf/anyOf names a whole alternative and stays closed.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export const ROOT_ID = "urn:esign:openapi";

const PARTIAL = new Set(["allOf", "if", "then", "else", "not"]);
const ALTERNATIVES = new Set(["oneOf", "anyOf"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
const SCHEMA_VALUES = new Set([
  "items", "prefixItems", "additionalProperties", "unevaluatedProperties", "contains",
  "propertyNames", "unevaluatedItems",
]);

function isObjectSchema(node) {
  const type = node.type;
  return type === "object" || (Array.isArray(type) && type.includes("object")) ||
      "properties" in node;
}

function componentOf(doc, ref) {
  const prefix = "#/components/schemas/";
  return typeof ref === "string" && ref.startsWith(prefix) ?
      doc.components.schemas[ref.slice(prefix.length)] :
      undefined;
}

// Returns a closed copy of `schema`; `partial` when it describes only part of an object.
function close(doc, schema, partial) {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  if (partial && Object.keys(schema).length === 1 && componentOf(doc, schema.$ref)) {
    return close(doc, structuredClone(componentOf(doc, schema.$ref)), true);
  }
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (PARTIAL.has(key)) {
      out[key] = Array.isArray(value) ? value.map((v) => close(doc, v, true)) :
                                        close(doc, value, true);
    } else if (ALTERNATIVES.has(key)) {
      out[key] = value.map((v) => close(doc, v, !(v && v.$ref)));
    } else if (SCHEMA_MAPS.has(key)) {
      out[key] = Object.fromEntries(
          Object.entries(value).map(([name, v]) => [name, close(doc, v, false)]));
    } else if (SCHEMA_VALUES.has(key)) {
      out[key] = Array.isArray(value) ? value.map((v) => close(doc, v, false)) :
                                        close(doc, value, false);
    } else {
      out[key] = value;
    }
  }
  if (!partial && isObjectSchema(out) && !("additionalProperties" in out) &&
      !("unevaluatedProperties" in out)) {
    out.unevaluatedProperties = false;
  }
  return out;
}

// Every `schema` of the document outside components/schemas (media types of responses, request
// bodies, webhooks, parameters), closed in place.
function closeMediaSchemas(doc, node) {
  if (Array.isArray(node)) return node.forEach((n) => closeMediaSchemas(doc, n));
  if (node === null || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node)) {
    if (key === "schema" && value && typeof value === "object") node[key] = close(doc, value, false);
    else closeMediaSchemas(doc, value);
  }
}

function rewriteRefs(node) {
  if (Array.isArray(node)) return node.forEach(rewriteRefs);
  if (node === null || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith("#/")) {
      node[key] = ROOT_ID + value;
    } else {
      rewriteRefs(value);
    }
  }
}

// An Ajv instance holding the closed document under ROOT_ID.
export function closedValidator(doc) {
  const closed = structuredClone(doc);
  closed.components.schemas = Object.fromEntries(
      Object.entries(doc.components.schemas).map(([name, s]) => [name, close(doc, s, false)]));
  for (const part of ["paths", "webhooks"]) closeMediaSchemas(doc, closed[part] ?? {});
  for (const part of ["responses", "requestBodies", "parameters", "headers"]) {
    closeMediaSchemas(doc, closed.components[part] ?? {});
  }
  rewriteRefs(closed);
  // OpenAPI's own members (paths, info, ...) are not JSON Schema keywords: not strict.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: ROOT_ID, ...closed });
  return ajv;
}

// A JSON pointer fragment for `parts` (each escaped).
export function pointer(...parts) {
  return "#/" + parts.map((p) => String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
}
