import { describe, expect, it, onTestFinished } from 'vitest';
import { randomBytes } from 'node:crypto';
import { openDb, type Db } from '../store/db.js';
import { openPostgres } from '../store/postgres.js';
import { Sealer } from '../store/secrets.js';
import { realClock } from '../domain/clock.js';
import { IdempotentWrites, type Decision } from '../domain/idempotency.js';
import { postgresStore } from './postgres.js';
import { contract } from './support.js';

/**
 * The decision on a key, without HTTP in the way: many decisions on one key taken at once, on one
 * SQLite connection or on two PostgreSQL pools of one database (two replicas), claim it exactly
 * once. Each decision reads and claims in one transaction; read and claim apart, two of them would
 * both find the key free and both claim it.
 */

const seconds = (id: string) => contract().limit(id).value! * 1000;
const settings = { windowMs: seconds('idempotency-key-window'), inFlightMs: seconds('idempotency-key-in-flight') };
const sealer = new Sealer(randomBytes(32));
const request = (key: string, body = '{"website":"acme.com","email":"agent@example.com"}') => ({
  credential: 'key:kid_claims',
  key,
  method: 'POST',
  path: '/v1/logins/requests',
  body: Buffer.from(body),
});

/** Every store decides `rounds` keys, each `each` times at once; returns the decisions per key. */
async function decideAtOnce(stores: Db[], rounds: number, each: number): Promise<Decision['kind'][][]> {
  const writes = stores.map((db) => new IdempotentWrites({ db, sealer, clock: realClock }, settings));
  const out: Decision['kind'][][] = [];
  for (let round = 0; round < rounds; round++) {
    const key = `claims-${randomBytes(6).toString('hex')}`;
    const decisions = await Promise.all(Array.from({ length: each }, (_, i) => writes[i % writes.length]!.begin(request(key))));
    out.push(decisions.map((d) => d.kind));
  }
  return out;
}

function expectOneClaimEach(kinds: Decision['kind'][][]): void {
  for (const one of kinds) {
    expect(one.filter((k) => k === 'claimed'), JSON.stringify(one)).toHaveLength(1);
    expect(one.filter((k) => k !== 'claimed' && k !== 'in-use'), JSON.stringify(one)).toEqual([]);
  }
}

describe('IdempotentWrites.begin with one key at once', () => {
  it('when decisions on one key are taken at once on one SQLite connection, then exactly one claims it and the others find it in use', async () => {
    const db = openDb(':memory:');
    onTestFinished(() => db.close());
    expectOneClaimEach(await decideAtOnce([db], 20, 6));
  });

  it('when decisions on one key are taken at once on two PostgreSQL pools of one database, then exactly one claims it and the others find it in use', async () => {
    const first = await postgresStore({ connectTimeoutMs: 20_000 });
    const second = await openPostgres({ url: first.url, connectTimeoutMs: 20_000 });
    onTestFinished(() => second.close());
    expectOneClaimEach(await decideAtOnce([first, second], 10, 6));
  }, 60_000);

  it('when a key is claimed and then answered, then a decision taken at once with another body is refused and one with the same body replays', async () => {
    const db = openDb(':memory:');
    onTestFinished(() => db.close());
    const writes = new IdempotentWrites({ db, sealer, clock: realClock }, settings);
    const claimed = await writes.begin(request('answered'));
    if (claimed.kind !== 'claimed') throw new Error(`the key was ${claimed.kind}`);
    await writes.finish(claimed.claim, { status: 202, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"requestId":"sreq_1"}') });
    const [same, other] = await Promise.all([writes.begin(request('answered')), writes.begin(request('answered', '{"website":"globex.com"}'))]);
    expect(same).toEqual({ kind: 'replay', answer: { status: 202, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"requestId":"sreq_1"}') } });
    expect(other).toEqual({ kind: 'reused' });
  });
});
