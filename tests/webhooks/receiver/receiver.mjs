// A webhook receiver on loopback for the end-to-end tests. Every delivery is verified with the
// standardwebhooks package (an implementation independent of the service) against the secrets it
// was given, and recorded. It prints "receiver listening on PORT" on stderr once it listens.
//   POST /_secrets   {"secrets":["whsec_..."]}   the secrets deliveries must verify with
//   POST /_behave    {"status":503,"count":2,"delayMs":0,"retryAfter":"1"}  the next `count`
//                    deliveries answer `status` (after delayMs); count -1 = until changed
//   GET  /_received  [{"id","timestamp","verified","body","at"}...] every delivery, in arrival order
//   POST anything else: a delivery
//   node receiver.mjs [PORT]
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

let secrets = [];
let behave = { status: 200, count: 0, delayMs: 0, retryAfter: null };
const received = [];

function verified(body, headers) {
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(body, {
        'webhook-id': headers['webhook-id'],
        'webhook-timestamp': headers['webhook-timestamp'],
        'webhook-signature': headers['webhook-signature'],
      });
      return true;
    } catch {
      // the next secret
    }
  }
  return false;
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const json = (status, value) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.url === '/_secrets') {
      secrets = JSON.parse(body).secrets;
      return json(200, { ok: true });
    }
    if (req.url === '/_behave') {
      behave = { status: 200, count: 0, delayMs: 0, retryAfter: null, ...JSON.parse(body) };
      return json(200, { ok: true });
    }
    if (req.url === '/_received') return json(200, received);
    let status = 200;
    let delayMs = 0;
    let retryAfter = null;
    if (behave.count !== 0) {
      status = behave.status;
      delayMs = behave.delayMs ?? 0;
      retryAfter = behave.retryAfter;
      if (behave.count > 0) behave.count -= 1;
    }
    setTimeout(() => {
      received.push({
        id: req.headers['webhook-id'],
        timestamp: req.headers['webhook-timestamp'],
        path: req.url,
        verified: verified(body, req.headers),
        status,
        body: JSON.parse(body),
        at: Date.now(),
      });
      const headers = retryAfter ? { 'Retry-After': String(retryAfter) } : {};
      res.writeHead(status, headers);
      res.end();
    }, delayMs);
  });
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stderr.write(`receiver listening on ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
