// A real RFC 3161 time-stamping authority on loopback for the tests: every POST is answered by
// `openssl ts -reply` with a key and certificates made at start (Node's http module, no npm).
//
//   node tsa_server.mjs --dir DIR [--port 0] [--mode ok|garbage|reject|slow] [--openssl PATH]
//
// --dir DIR   where the authority's files are made: ca.pem (a root CA, the trust anchor),
//             tsa.pem / tsa.key (the TSA's certificate, issued by the CA, extendedKeyUsage
//             critical timeStamping), tsa.cnf, serial. Tokens carry the TSA certificate and the CA.
// --mode      ok: a granted TimeStampResp for each query;
//             garbage: 200 with bytes that are not a TimeStampResp;
//             reject: a TimeStampResp of status rejection (badAlg) and no token;
//             slow: answers nothing for 60 seconds.
//             POST /mode/<mode> switches mode while running (answers 204).
// Prints "listening PORT" on stdout once it accepts connections; counts each query received in
// DIR/received and each answered in DIR/served (one line per token); exits on SIGTERM.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    dir: { type: 'string' },
    port: { type: 'string', default: '0' },
    mode: { type: 'string', default: 'ok' },
    openssl: { type: 'string', default: 'openssl' },
  },
});
if (!args.dir) {
  console.error('usage: node tsa_server.mjs --dir DIR [options] (see the top of this file)');
  process.exit(2);
}
const dir = args.dir;
const openssl = (...argv) => execFileSync(args.openssl, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
const file = (name) => join(dir, name);

// The CA and the TSA's certificate, as a real authority would hold them.
const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
openssl('req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '3650',
  '-subj', '/O=Test Trust/CN=Test Time Stamping Root', '-addext',
  'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
openssl('req', '-new', ...ec, '-keyout', file('tsa.key'), '-out', file('tsa.csr'),
  '-subj', '/O=Test Trust/CN=Test Time Stamping Authority');
writeFileSync(file('tsa.ext'), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n' +
  'extendedKeyUsage=critical,timeStamping\n');
openssl('x509', '-req', '-in', file('tsa.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'),
  '-CAcreateserial', '-days', '3650', '-extfile', file('tsa.ext'), '-out', file('tsa.pem'));
writeFileSync(file('serial'), '01\n');
writeFileSync(file('tsa.cnf'), `[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
dir = ${dir}
serial = ${file('serial')}
crypto_device = builtin
signer_cert = ${file('tsa.pem')}
certs = ${file('ca.pem')}
signer_key = ${file('tsa.key')}
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`);

let mode = args.mode;
const work = mkdtempSync(join(tmpdir(), 'tsa-'));
let queue = Promise.resolve();  // openssl ts keeps a serial file: one reply at a time

function reply(query) {
  const queryFile = join(work, 'query.tsq');
  const replyFile = join(work, 'reply.tsr');
  writeFileSync(queryFile, query);
  openssl('ts', '-reply', '-config', file('tsa.cnf'), '-queryfile', queryFile, '-out', replyFile);
  appendFileSync(file('served'), 'token\n');
  return readFileSync(replyFile);
}

// TimeStampResp { status PKIStatusInfo { status 2 (rejection), failInfo badAlg } }, no token.
const rejection = Buffer.from([0x30, 0x09, 0x30, 0x07, 0x02, 0x01, 0x02, 0x03, 0x02, 0x07, 0x80]);

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const switched = request.url.match(/^\/mode\/(\w+)$/);
    if (switched) {
      mode = switched[1];
      response.writeHead(204).end();
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    appendFileSync(file('received'), 'query\n');
    if (mode === 'slow') return;  // never answered; the client's timeout ends it
    const send = (body) =>
      response.writeHead(200, { 'Content-Type': 'application/timestamp-reply' }).end(body);
    if (mode === 'garbage') return send(Buffer.from('<html>not a time-stamp response</html>'));
    if (mode === 'reject') return send(rejection);
    queue = queue.then(() => {
      try {
        send(reply(Buffer.concat(chunks)));
      } catch (error) {
        console.error(`openssl ts -reply failed: ${error.message}`);
        response.writeHead(500).end();
      }
    });
  });
});
server.listen(Number(args.port), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
process.on('SIGTERM', () => {
  rmSync(work, { recursive: true, force: true });
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
