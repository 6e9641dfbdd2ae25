import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { join } from 'node:path';
const which = process.argv[2]!; // filing | catalog | rotate
const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/i32-prof/' + which, '--import', 'tsx', join(import.meta.dirname, 'server.ts'), 'reference'], {
  env: { ...process.env, BENCH_SCALE: 'small', BENCH_VALIDATE_RESPONSES: '1', VAULT_LIMITS: ['catalog-per-key', 'catalog-per-account', 'login-writes-per-key', 'credential-changes-per-account', 'pending-signup-requests'].map((id) => `${id}=1000000000`).join(',') },
  stdio: ['pipe', 'ignore', 'inherit', 'pipe'],
});
const ready: any = await new Promise((resolve) => { let t = ''; child.stdio[3]!.on('data', (c) => { t += c; if (t.includes('\n')) resolve(JSON.parse(t.split('\n')[0]!)); }); });
const base = `http://127.0.0.1:${ready.port}`;
const opts: any = which === 'catalog'
  ? { url: `${base}/v1/tokens`, headers: { authorization: `Bearer ${ready.scale.agent}` } }
  : which === 'filing'
    ? { url: `${base}/v1/logins/requests`, method: 'POST', headers: { authorization: `Bearer ${ready.scale.signup}`, 'content-type': 'application/json' }, body: JSON.stringify({ website: 'acme.com', email: 'jane@example.com' }) }
    : { url: `${base}/v1/logins/password`, method: 'POST', headers: { authorization: `Bearer ${ready.scale.signup}`, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'benchwrite' }) };
const r = await autocannon({ ...opts, connections: 10, duration: Number(process.argv[3] ?? 8) });
console.log(which, r.requests.total, 'requests', JSON.stringify(r.statusCodeStats));
child.stdin!.end();
await new Promise((res) => child.once('exit', res));
