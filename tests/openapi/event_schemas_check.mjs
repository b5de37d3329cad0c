// Checks every event the end-to-end tests wrote against the schemas contractd publishes at
// GET /api/v1/events/schemas, with Ajv (JSON Schema 2020-12, formats by ajv-formats):
//   - each record of each test's log (ESIGN_EVENT_SAMPLES_DIR/*.log.ndjson): its data against the
//     definition of its type;
//   - each message the tests read from Kafka (*.kafka.ndjson): against the envelope, whose data
//     is checked against its type's definition.
// The schemas are checked closed (every object schema that lists properties gets
// additionalProperties: false), so a writer that adds a member its struct does not describe
// fails here. An event whose type has no definition fails, and so does a run with no samples.
//   node event_schemas_check.mjs CONTRACTD SAMPLES_DIR
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { startContractd, stopChild } from "../browser/harness.mjs";

const [contractd, samplesDir] = process.argv.slice(2);

async function fetchSchemas() {
  const dataDir = mkdtempSync(join(tmpdir(), "event-schemas-"));
  const server = await startContractd(contractd, dataDir);
  try {
    const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/events/schemas`);
    if (response.status !== 200) throw new Error(`GET /api/v1/events/schemas: ${response.status}`);
    const type = response.headers.get("content-type") ?? "";
    if (!type.startsWith("application/schema+json")) throw new Error(`content type ${type}`);
    return await response.json();
  } finally {
    await stopChild(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// A copy in which every object schema listing properties admits no others.
function closed(schema) {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== "object") return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) out[key] = closed(value);
  if (out.type === "object" && out.properties && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}

function lines(file) {
  return readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "");
}

const published = await fetchSchemas();
const schemas = closed(published);
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);
ajv.addSchema(schemas);
const id = schemas.$id;
const validators = new Map();
function validatorOf(definition) {
  if (!validators.has(definition)) {
    validators.set(definition, schemas.$defs[definition] ? ajv.getSchema(`${id}#/$defs/${definition}`) : null);
  }
  return validators.get(definition);
}

// The envelope must check its data by type, and know no type it was not given.
{
  const envelope = validatorOf("envelope");
  const message = { schemaVersion: 1, eventId: "evt_1", type: "contract.sent", position: 1,
    streamId: "contract-ctr_1", streamVersion: 3, contractId: "ctr_1", contractOrganizationId: null,
    time: "2026-11-28T10:00:00.000000Z", actor: { clientId: "cli_1", organizationId: "org_1" },
    dataSchemaVersion: 1,
    data: { contractId: "ctr_1", sentAt: "2026-11-28T10:00:00.000000Z", readyParticipantIds: [] } };
  if (!envelope(message)) throw new Error(`a valid message is refused: ${ajv.errorsText(envelope.errors)}`);
  for (const [what, bad] of [
    ["data without sentAt", { ...message, data: { contractId: "ctr_1", readyParticipantIds: [] } }],
    ["an unknown type", { ...message, type: "contract.teleported" }],
    ["a member no struct describes", { ...message, data: { ...message.data, extra: 1 } }]]) {
    if (envelope(bad)) throw new Error(`the envelope schema accepts ${what}`);
  }
}

const counts = new Map();
const problems = [];
function check(definition, value, where) {
  const validate = validatorOf(definition);
  counts.set(definition, (counts.get(definition) ?? 0) + 1);
  if (!validate) {
    problems.push(`${where}: no schema for ${definition}`);
    return;
  }
  if (!validate(value)) {
    problems.push(`${where}: ${definition}: ${ajv.errorsText(validate.errors, { dataVar: "data" })}`);
  }
}

let files = 0;
for (const name of readdirSync(samplesDir).sort()) {
  const file = join(samplesDir, name);
  if (name.endsWith(".log.ndjson")) {
    ++files;
    for (const line of lines(file)) {
      const record = JSON.parse(line);
      check(record.type, record.data, `${name} position ${record.position}`);
    }
  } else if (name.endsWith(".kafka.ndjson")) {
    ++files;
    for (const line of lines(file)) {
      const message = JSON.parse(line);
      check("envelope", message, `${name} ${message.type} at ${message.position}`);
    }
  }
}

for (const [definition, count] of [...counts].sort()) console.log(`${definition}: ${count}`);
const unseen = Object.keys(published.$defs).filter((definition) => !counts.has(definition));
if (unseen.length) console.log(`not produced by these tests: ${unseen.join(", ")}`);
const total = [...counts.values()].reduce((a, b) => a + b, 0);
if (files === 0 || total === 0) problems.push(`no events in ${samplesDir}`);
// At most 50 problems, each once: one writer's mistake repeats in every test.
const distinct = [...new Set(problems.map((p) => p.replace(/^[^:]*: /, "")))];
for (const problem of distinct.slice(0, 50)) console.error(`not ok - ${problem}`);
if (problems.length) {
  console.error(`${problems.length} events of ${total} do not match their schema`);
  process.exit(1);
}
console.log(`ok - ${total} events in ${files} files match their schemas`);
