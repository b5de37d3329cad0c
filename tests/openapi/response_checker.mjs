// Checks one HTTP answer against the OpenAPI document: the operation its method and path name, the
// status among that operation's responses (or its `default`), the media type among the response's
// content, and a JSON body against the response's schema, closed (closed_schemas.mjs).
import { closedValidator, pointer, ROOT_ID } from "./closed_schemas.mjs";

const METHODS = ["get", "put", "post", "delete", "patch"];

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

  // The problems of one answer (empty: it matches the document).
  check(method, url, status, contentType, body) {
    const found = this.operationFor(method, url);
    if (!found) return this.checkUndescribedMethod(method, url, status, contentType, body);
    const { op, path } = found;
    const name = `${op.operationId} ${status}`;
    this.checked.add(name);
    const key = String(status) in op.responses ? String(status) : "default";
    if (!(key in op.responses)) return [`${name}: status not documented (no default)`];
    const responsePointer = op.responses[key].$ref ?? pointer("paths", path, found.method,
                                                              "responses", key);
    return this.checkBody(name, responsePointer, contentType, body);
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

  // A method the path does not have answers the one error body (405 METHOD_NOT_ALLOWED).
  checkUndescribedMethod(method, url, status, contentType, body) {
    const path = new URL(url, "http://x").pathname;
    const other = this.operations.find((o) => o.regex.test(path));
    if (!other) return [`${method} ${url}: no operation of the document`];
    if (status !== 405) return [`${method} ${url}: ${status}, where no operation is described`];
    return this.checkBody(`${method} ${other.path} 405`, pointer("components", "responses", "Error"),
                          contentType, body);
  }

  resolve(ref) {
    let node = this.doc;
    for (const raw of ref.replace(/^#\//, "").split("/")) {
      node = node[raw.replaceAll("~1", "/").replaceAll("~0", "~")];
    }
    return node;
  }
}
