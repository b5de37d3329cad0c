// Checks one HTTP answer against the OpenAPI document: the operation its method and path name, the
// status among that operation's responses (or its `default`), the media type among the response's
// content, a JSON body against the response's schema, closed (closed_schemas.mjs), and the
// response's headers: every header the response documents must be on the answer (bar the few whose
// presence depends on the request, CONDITIONAL below) and match its schema. HEAD is checked as
// the path's GET without a body, OPTIONS as 204 with `Allow`, a method the path does not serve
// against the path's 405.
import { closedValidator, pointer, ROOT_ID } from "./closed_schemas.mjs";

const METHODS = ["get", "put", "post", "delete", "patch"];

// Documented headers that only some requests get, with the test that says whether this one should.
const CONDITIONAL = {
  "x-log-position": (url) => new URL(url, "http://x").searchParams.has("asOf"),
};

export class ResponseChecker {
  constructor(doc) {
    this.doc = doc;
    this.ajv = closedValidator(doc);
    this.validators = new Map();
    this.operations = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const literal = path.split("/").filter((s) => s && !s.startsWith("{")).length;
      const regex = new RegExp("^" + path.replace(/\{[^}]+\}/g, "[^/]+") + "$");
      for (const method of METHODS) {
        if (item[method]) this.operations.push({ method, path, regex, literal, op: item[method] });
      }
    }
    // The most literal template first: /contracts/{id}/status before /contracts/{id}/{x}.
    this.operations.sort((a, b) => b.literal - a.literal);
    this.checked = new Set();  // "operationId status"
  }

  operationFor(method, url) {
    const path = new URL(url, "http://x").pathname;
    return this.operations.find((o) => o.method === method.toLowerCase() && o.regex.test(path));
  }

  // The problems of one answer (empty: it matches the document). `headers`: a fetch Headers.
  check(method, url, status, contentType, body, headers) {
    const verb = method.toUpperCase();
    if (verb === "OPTIONS") return this.checkOptions(url, status, body, headers);
    const head = verb === "HEAD";
    const found = this.operationFor(head ? "GET" : method, url);
    if (!found) return this.checkUndescribedMethod(method, url, status, contentType, body, headers);
    const { op, path } = found;
    const name = `${head ? "HEAD " : ""}${op.operationId} ${status}`;
    this.checked.add(name);
    const key = String(status) in op.responses ? String(status) : "default";
    if (!(key in op.responses)) return [`${name}: status not documented (no default)`];
    const responsePointer = op.responses[key].$ref ?? pointer("paths", path, found.method,
                                                              "responses", key);
    const problems = this.checkHeaders(name, responsePointer, url, headers);
    if (head) {
      if (body.length > 0) problems.push(`${name}: a body in the answer to HEAD`);
      return problems;
    }
    return [...problems, ...this.checkBody(name, responsePointer, contentType, body)];
  }

  // Every header the response at `responsePointer` documents is on the answer and matches its
  // schema (header values are text: an integer schema is checked against the number written).
  checkHeaders(name, responsePointer, url, headers) {
    const problems = [];
    for (const [header, definition] of Object.entries(this.resolve(responsePointer).headers ?? {})) {
      const value = headers.get(header);
      const lower = header.toLowerCase();
      if (value === null) {
        if (!(lower in CONDITIONAL) || CONDITIONAL[lower](url)) {
          problems.push(`${name}: documented header ${header} is missing`);
        }
        continue;
      }
      const headerPointer = definition.$ref ?? `${responsePointer}/headers/${header}`;
      const schema = this.resolve(headerPointer).schema;
      if (!schema) continue;
      let validate = this.validators.get(headerPointer);
      if (!validate) {
        validate = this.ajv.compile({ $ref: ROOT_ID + headerPointer + "/schema" });
        this.validators.set(headerPointer, validate);
      }
      const typed = schema.type === "integer" && /^-?[0-9]+$/.test(value) ? Number(value) : value;
      if (!validate(typed)) {
        problems.push(`${name}: header ${header}: ${JSON.stringify(value)} does not match ` +
                      JSON.stringify(schema));
      }
    }
    return problems;
  }

  // OPTIONS on a path of the document: 204, no body, `Allow` naming every method the document
  // gives the path (and HEAD with GET, OPTIONS itself).
  checkOptions(url, status, body, headers) {
    const path = new URL(url, "http://x").pathname;
    const operations = this.operations.filter((o) => o.regex.test(path));
    if (operations.length === 0) return [`OPTIONS ${url}: no operation of the document`];
    const name = `OPTIONS ${operations[0].path} ${status}`;
    this.checked.add(name);
    if (status !== 204) return [`${name}: expected 204`];
    const problems = body.length > 0 ? [`${name}: a body in a 204`] : [];
    const allow = (headers.get("allow") ?? "").split(",").map((m) => m.trim()).filter(Boolean);
    const expected = new Set(["OPTIONS"]);
    for (const o of operations.filter((o) => o.path === operations[0].path)) {
      expected.add(o.method.toUpperCase());
      if (o.method === "get") expected.add("HEAD");
    }
    if ([...expected].sort().join() !== [...allow].sort().join()) {
      problems.push(`${name}: Allow ${headers.get("allow")}, the document gives ` +
                    [...expected].join(", "));
    }
    return problems;
  }

  // The media type and, for JSON, the body of the response at `responsePointer`.
  checkBody(name, responsePointer, contentType, body) {
    const content = this.resolve(responsePointer).content ?? {};
    if (Object.keys(content).length === 0) {
      return body.length === 0 ? [] : [`${name}: a body where the document has none`];
    }
    const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
    if (!(mediaType in content)) {
      return [`${name}: Content-Type ${contentType} not among ${Object.keys(content).join(", ")}`];
    }
    if (mediaType !== "application/json") return [];
    let json;
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch (e) {
      return [`${name}: body is not JSON (${e.message})`];
    }
    const schemaRef = ROOT_ID + responsePointer + "/content/application~1json/schema";
    let validate = this.validators.get(schemaRef);
    if (!validate) {
      validate = this.ajv.compile({ $ref: schemaRef });
      this.validators.set(schemaRef, validate);
    }
    if (validate(json)) return [];
    const errors = validate.errors.slice(0, 8).map(
        (e) => `  ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
    return [`${name}: body does not match the schema:\n${errors.join("\n")}\n  body: ` +
        JSON.stringify(json).slice(0, 600)];
  }

  // A method the path does not have answers the 405 its operations document (METHOD_NOT_ALLOWED
  // with `Allow`).
  checkUndescribedMethod(method, url, status, contentType, body, headers) {
    const path = new URL(url, "http://x").pathname;
    const other = this.operations.find((o) => o.regex.test(path));
    if (!other) return [`${method} ${url}: no operation of the document`];
    if (status !== 405) return [`${method} ${url}: ${status}, where no operation is described`];
    const name = `${method} ${other.path} 405`;
    this.checked.add(name);
    const response = other.op.responses["405"];
    if (!response) return [`${name}: ${other.op.operationId} documents no 405`];
    const responsePointer = response.$ref ?? pointer("paths", other.path, other.method,
                                                     "responses", "405");
    return [...this.checkHeaders(name, responsePointer, url, headers),
            ...this.checkBody(name, responsePointer, contentType, body)];
  }

  resolve(ref) {
    let node = this.doc;
    for (const raw of ref.replace(/^#\//, "").split("/")) {
      node = node[raw.replaceAll("~1", "/").replaceAll("~0", "~")];
    }
    return node;
  }
}
