// A real SMTP server on loopback for the tests: nodemailer's smtp-server receives the messages and
// mailparser, an independent MIME parser, reads each one back.
//
//   node smtp_server.mjs --out DIR [--port 0] [--host 127.0.0.1]
//                        [--tls-key FILE --tls-cert FILE] [--implicit-tls] [--require-tls]
//                        [--auth USER:PASS] [--replies-rcpt 451,250] [--replies-data 550]
//
// --out DIR        each accepted message is saved as DIR/<n>.eml (the raw bytes received) and
//                  DIR/<n>.json (n = 1, 2, ...; the .json is renamed into place last, so once it
//                  exists both files are complete). The JSON: {envelope: {from, to: [..]},
//                  messageId, subject, from, to (mailparser's text form), date (ISO), text, html,
//                  headers: {lowercase name: raw value}, attachments: [{filename, contentType,
//                  size, sha256}]}.
// --port N         0 (the default) takes a free port.
// --tls-key/-cert  a PEM key and certificate: STARTTLS is offered with them (without them, it
//                  is not offered at all).
// --implicit-tls   TLS from the first byte (smtps://) instead of STARTTLS.
// --require-tls    MAIL FROM and AUTH before STARTTLS are refused with 530.
// --auth USER:PASS AUTH PLAIN/LOGIN offered (also without TLS, so a client's own refusal to send
//                  a password in clear can be tested) and required; other credentials get 535.
// --replies-rcpt / --replies-data CODES
//                  the reply codes of the successive RCPT TO commands / ends of DATA, across
//                  connections; 250 for the rest. A refused DATA saves nothing.
//
// Prints exactly one line "listening PORT" on stdout once it accepts connections; exits on SIGTERM.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const { values: args } = parseArgs({
  options: {
    out: { type: 'string' },
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'tls-key': { type: 'string' },
    'tls-cert': { type: 'string' },
    'implicit-tls': { type: 'boolean', default: false },
    'require-tls': { type: 'boolean', default: false },
    auth: { type: 'string' },
    'replies-rcpt': { type: 'string', default: '' },
    'replies-data': { type: 'string', default: '' },
  },
});
if (!args.out) {
  console.error('usage: node smtp_server.mjs --out DIR [options] (see the top of this file)');
  process.exit(2);
}
mkdirSync(args.out, { recursive: true });

const codes = (list) => list.split(',').filter((code) => code !== '').map(Number);
const rcptReplies = codes(args['replies-rcpt']);
const dataReplies = codes(args['replies-data']);
const replyTexts = {
  421: '4.3.2 Service not available, closing channel',
  450: '4.2.0 Mailbox busy, try again later',
  451: '4.3.0 Local error in processing, try again later',
  452: '4.3.1 Insufficient system storage',
  550: '5.1.1 Mailbox unavailable: no such user here',
  552: '5.3.4 Message too big for system',
  554: '5.7.1 Message rejected as spam',
};

// The next scripted reply: nothing (go on) for 250, else an error carrying the code.
function scripted(replies) {
  const code = replies.length > 0 ? replies.shift() : 250;
  if (code >= 200 && code < 300) return null;
  const error = new Error(replyTexts[code] ?? `Scripted reply ${code}`);
  error.responseCode = code;
  return error;
}

function refusedBeforeTls(session) {
  if (!args['require-tls'] || session.secure) return null;
  const error = new Error('5.7.0 Must issue a STARTTLS command first');
  error.responseCode = 530;
  return error;
}

const [authUser, authPass] = args.auth ? [args.auth.slice(0, args.auth.indexOf(':')),
  args.auth.slice(args.auth.indexOf(':') + 1)] : [];
const tls = args['tls-key'] && args['tls-cert'];
const disabled = [];
if (!args.auth) disabled.push('AUTH');
if (!tls) disabled.push('STARTTLS');

let saved = 0;

function writeAtomically(path, data) {
  writeFileSync(`${path}.tmp`, data);
  renameSync(`${path}.tmp`, path);
}

async function save(raw, session) {
  const parsed = await simpleParser(raw);
  const headers = {};
  for (const { key, line } of parsed.headerLines) {
    headers[key] = line.slice(line.indexOf(':') + 1).trim();
  }
  const number = ++saved;
  writeAtomically(join(args.out, `${number}.eml`), raw);
  writeAtomically(join(args.out, `${number}.json`), JSON.stringify({
    envelope: {
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
    },
    messageId: parsed.messageId ?? null,
    subject: parsed.subject ?? null,
    from: parsed.from?.text ?? null,
    to: parsed.to?.text ?? null,
    date: parsed.date ? parsed.date.toISOString() : null,
    text: parsed.text ?? null,
    html: parsed.html || null,
    headers,
    attachments: parsed.attachments.map((attachment) => ({
      filename: attachment.filename ?? null,
      contentType: attachment.contentType,
      size: attachment.content.length,
      sha256: createHash('sha256').update(attachment.content).digest('hex'),
    })),
  }, null, 2));
}

const server = new SMTPServer({
  name: 'smtp.test',
  banner: 'test SMTP server',
  logger: false,
  secure: args['implicit-tls'],
  key: tls ? readFileSync(args['tls-key']) : undefined,
  cert: tls ? readFileSync(args['tls-cert']) : undefined,
  disabledCommands: disabled,
  allowInsecureAuth: true,
  authOptional: !args.auth,
  onAuth(auth, session, callback) {
    const refusal = refusedBeforeTls(session);
    if (refusal) return callback(refusal);
    if (auth.username === authUser && auth.password === authPass) {
      return callback(null, { user: auth.username });
    }
    const error = new Error('5.7.8 Authentication credentials invalid');
    error.responseCode = 535;
    return callback(error);
  },
  onMailFrom(address, session, callback) {
    callback(refusedBeforeTls(session));
  },
  onRcptTo(address, session, callback) {
    callback(scripted(rcptReplies));
  },
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      const refusal = scripted(dataReplies);
      if (refusal) return callback(refusal);
      save(Buffer.concat(chunks), session).then(() => callback(null, 'Message queued'),
        (error) => {
          error.responseCode = 451;
          callback(error);
        });
    });
  },
});
server.on('error', (error) => console.error(`smtp server: ${error.message}`));
process.on('SIGTERM', () => process.exit(0));
server.listen(Number(args.port), args.host, () => {
  console.log(`listening ${server.server.address().port}`);
});
