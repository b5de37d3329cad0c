// An RFC 9162 consistency check written from the RFC (section 2.1.4.2), apart from the service's
// own code: node rfc9162_consistency.mjs FIRST_SIZE FIRST_ROOT_HEX SECOND_SIZE SECOND_ROOT_HEX
// [PROOF_HASH_HEX...]. Exits 0 when the proof shows the second tree extends the first, 1 when it
// does not, 2 on bad arguments.
import { createHash } from 'node:crypto';

function nodeHash(left, right) {
  return createHash('sha256').update(Buffer.from([1])).update(left).update(right).digest();
}

function verify(firstSize, firstRoot, secondSize, secondRoot, proof) {
  if (firstSize > secondSize) return false;
  if (firstSize === secondSize) return proof.length === 0 && firstRoot.equals(secondRoot);
  if (firstSize === 0n) return proof.length === 0;
  if (proof.length === 0) return false;
  // 1. If first is an exact power of 2, prepend first_hash to the path.
  let path = proof;
  if ((firstSize & (firstSize - 1n)) === 0n) path = [firstRoot, ...proof];
  // 2-3.
  let fn = firstSize - 1n;
  let sn = secondSize - 1n;
  // 4. If LSB(fn) is set, right-shift both fn and sn equally until LSB(fn) is not set.
  while ((fn & 1n) === 1n) {
    fn >>= 1n;
    sn >>= 1n;
  }
  // 5.
  let fr = path[0];
  let sr = path[0];
  // 6.
  for (const c of path.slice(1)) {
    if (sn === 0n) return false;
    if ((fn & 1n) === 1n || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if ((fn & 1n) === 0n) {
        while (!((fn & 1n) === 1n || fn === 0n)) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  // 7.
  return fr.equals(firstRoot) && sr.equals(secondRoot) && sn === 0n;
}

const args = process.argv.slice(2);
if (args.length < 4) {
  console.error('usage: rfc9162_consistency.mjs FIRST_SIZE FIRST_ROOT SECOND_SIZE SECOND_ROOT [PROOF...]');
  process.exit(2);
}
const [firstSize, firstRoot, secondSize, secondRoot, ...proof] = args;
const ok = verify(BigInt(firstSize), Buffer.from(firstRoot, 'hex'), BigInt(secondSize),
                  Buffer.from(secondRoot, 'hex'), proof.map((h) => Buffer.from(h, 'hex')));
console.log(ok ? 'consistent' : 'NOT consistent');
process.exit(ok ? 0 : 1);
