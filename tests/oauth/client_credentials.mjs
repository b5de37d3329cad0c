// A standard OAuth 2.0 client (openid-client, used unchanged) against a live contractd: the
// client credentials grant with client_secret_basic and with client_secret_post, a narrower
// scope, and each token used on GET /api/v1/contracts. A wrong secret must be refused the way
// RFC 6749 section 5.2 says. Usage: node client_credentials.mjs BASE_URL CLIENT_ID CLIENT_SECRET
import assert from 'node:assert/strict';
import * as client from 'openid-client';

const [base, clientId, clientSecret] = process.argv.slice(2);
if (!base || !clientId || !clientSecret) {
  console.error('usage: node client_credentials.mjs BASE_URL CLIENT_ID CLIENT_SECRET');
  process.exit(2);
}

// contractd publishes no discovery document: the issuer is configured by hand.
const server = { issuer: base, token_endpoint: `${base}/api/v1/auth/machine-token` };

function configuration(auth, secret = clientSecret) {
  const config = new client.Configuration(server, clientId, {}, auth(secret));
  client.allowInsecureRequests(config); // plain http on loopback, for the test only
  return config;
}

async function listContracts(token) {
  const response = await fetch(`${base}/api/v1/contracts?limit=1`, {
    headers: { Authorization: `Bearer ${token.access_token}` },
  });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  const body = JSON.parse(text);
  assert.ok(Array.isArray(body.items));
}

for (const [name, auth] of [
  ['client_secret_basic', client.ClientSecretBasic],
  ['client_secret_post', client.ClientSecretPost],
]) {
  const token = await client.clientCredentialsGrant(configuration(auth));
  assert.equal(token.token_type, 'bearer'); // openid-client lower-cases it
  assert.ok(token.expires_in > 0);
  assert.ok(token.scope.split(' ').includes('contracts:read'));
  await listContracts(token);

  const narrow = await client.clientCredentialsGrant(configuration(auth), {
    scope: 'contracts:read',
  });
  assert.equal(narrow.scope, 'contracts:read');
  await listContracts(narrow);
  console.log(`${name}: token obtained and used`);

  // A 401 with a WWW-Authenticate challenge (RFC 6749 section 5.2) is reported by the library as
  // the challenge itself, with the RFC's error body still readable.
  const refused = await client.clientCredentialsGrant(configuration(auth, 'cs_wrong')).then(
    () => assert.fail('a wrong secret was accepted'),
    (error) => error,
  );
  assert.equal(refused.status, 401);
  assert.equal(refused.code, 'OAUTH_WWW_AUTHENTICATE_CHALLENGE');
  assert.equal(refused.cause[0].scheme, 'basic');
  assert.equal(refused.cause[0].parameters.realm, 'contract-api');
  assert.equal((await refused.response.json()).error, 'invalid_client');
  await assert.rejects(
    client.clientCredentialsGrant(configuration(auth), { scope: 'webhooks:manage' }),
    (error) => error.error === 'invalid_scope' && error.status === 400,
  );
  console.log(`${name}: wrong secret and wider scope refused`);
}
