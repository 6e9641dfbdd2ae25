import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCase, type Case } from '../runner/case.js';
import { reference, spec } from '../runner/basis.js';
import { parseArgs } from '../runner/options.js';
import { resolveSettings } from '../runner/settings.js';
import { runConformance, type Catalogue, type RunSummary } from '../runner/conformance.js';
import { isPerMessage, lastingHeaders } from '../runner/per-message.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ROOT } from './support/processes.js';

/**
 * A verdict a person can read: a departure seen in many answers is one line with its counts, in
 * the console and every report; a failure is not listed again as a deviation; failures of one
 * cause are named once; a case that cites no section is filed under its basis. The deployment is
 * a real HTTP server that serves the recipe index with one more Cache-Control directive than the
 * reference (which the specification allows) and a request id of its own on every answer.
 */

const EXTRA_DIRECTIVE = 'public, max-age=300, immutable';

let server: http.Server;
let base: string;
let dir: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const body = JSON.stringify({ recipes: [] });
    res.writeHead(req.url === '/v1/recipes' ? 200 : 404, { 'content-type': 'application/json', 'cache-control': EXTRA_DIRECTIVE, 'x-request-id': randomUUID() });
    res.end(req.url === '/v1/recipes' ? body : JSON.stringify({ code: 'not_found', error: 'Nothing here.' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'conformance-verdict-'));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const index = (id: string, title: string, run: Case['run'], extra: Partial<Case> = {}) => defineCase({ id: `getRecipes/${id}`, title, requirements: ['recipes-index-cacheable'], needs: {}, costs: {}, run, ...extra } as Parameters<typeof defineCase>[0]);

const CASES: Case[] = [
  index('reads-twice', 'Reads the index twice', async (ctx) => {
    await ctx.call('getRecipes');
    await ctx.call('getRecipes');
  }),
  index('reads-once', 'Reads the index once', async (ctx) => {
    await ctx.call('getRecipes');
  }),
  index('reads-thrice', 'Reads the index three times', async (ctx) => {
    for (let i = 0; i < 3; i++) await ctx.call('getRecipes');
  }),
  // Fails on the very answer that also departs from the reference's Cache-Control.
  index('fails-on-the-answer', 'Fails on an answer that also deviates', async (ctx) => {
    const ex = await ctx.call('getRecipes');
    ctx.fail('an index with one recipe', 'an empty index', spec('recipes-index'), ex);
  }),
  index('first-of-a-cause', 'Fails with a cause another case shares', async (ctx) => {
    ctx.fail('recipes in the registry', 'none', spec('recipes-index'));
  }),
  index('second-of-a-cause', 'Fails with the same cause', async (ctx) => {
    ctx.fail('recipes in the registry', 'none', spec('recipes-index'));
  }),
  index('beyond-the-specification', 'Proves a choice of the reference only', async (ctx) => void (await ctx.call('getRecipes')), {
    requirements: undefined,
    sections: [],
    basis: reference('The specification does not say this; the reference does it.'),
  }),
];
const CATALOGUE: Catalogue = { cases: () => CASES, ineligible: {} };

async function run(extra: string[] = []): Promise<RunSummary & { output: string }> {
  let output = '';
  const settings = resolveSettings(parseArgs(['--base-url', base, '--jobs', '1', ...extra]), ROOT, {});
  const summary = await runConformance(settings, { write: (t) => void (output += t), isTTY: false }, CATALOGUE);
  return { ...summary, output };
}

describe('a departure seen in many answers', () => {
  let result: RunSummary & { output: string };
  const files = () => ({ json: join(dir, 'r.json'), junit: join(dir, 'j.xml'), html: join(dir, 'r.html'), coverage: join(dir, 'c.md') });
  beforeAll(async () => {
    const f = files();
    result = await run(['--json', f.json, '--junit', f.junit, '--html', f.html, '--coverage', f.coverage]);
  });

  it('when printed, then it is one line with the answers and cases it was seen in', () => {
    const lines = result.output.split('\n').filter((l) => l.includes(`received Cache-Control: ${EXTRA_DIRECTIVE}`));
    // Seven answers of four cases: the failing case's answer is its failure, not a deviation.
    expect(lines).toEqual([expect.stringMatching(/^ {2}expected Cache-Control: public, max-age=300 \| no-store; received Cache-Control: public, max-age=300, immutable · 7 answers in 4 cases · /)]);
    expect(result.output).toContain("deviations from the reference server's own choices: 1 distinct departure, seen in 7 answers of 4 cases; informative, never failures");
    expect(result.output).not.toContain('DEVIATION');
  });

  it('when a case failed on an answer, then that answer is its failure and not also a deviation', () => {
    const failing = result.results.find((r) => r.id === 'getRecipes/fails-on-the-answer')!;
    expect(failing.state).toBe('failed');
    expect(failing.deviations).toEqual([]);
    expect(result.results.find((r) => r.id === 'getRecipes/reads-thrice')!.deviations[0]!.answers).toBe(3);
  });

  it('when written as JSON, then the departure is one entry with its counts, and the failures are grouped by cause', () => {
    const report = JSON.parse(readFileSync(files().json, 'utf8')) as { deviations: { received: string; answers: number; cases: string[] }[]; failureCauses: { expected: string; cases: string[] }[] };
    expect(report.deviations).toHaveLength(1);
    expect(report.deviations[0]).toMatchObject({ received: `Cache-Control: ${EXTRA_DIRECTIVE}`, answers: 7 });
    expect(report.deviations[0]!.cases.sort()).toEqual(['getRecipes/beyond-the-specification', 'getRecipes/reads-once', 'getRecipes/reads-thrice', 'getRecipes/reads-twice']);
    expect(report.failureCauses).toEqual([
      expect.objectContaining({ expected: 'recipes in the registry', cases: ['getRecipes/first-of-a-cause', 'getRecipes/second-of-a-cause'] }),
      expect.objectContaining({ expected: 'an index with one recipe', cases: ['getRecipes/fails-on-the-answer'] }),
    ]);
  });

  it('when written as HTML and coverage, then one row says it, with its counts', () => {
    const html = readFileSync(files().html, 'utf8');
    expect(html.match(/<tr><td>Cache-Control: public, max-age=300 \| no-store<\/td>/g)).toHaveLength(1);
    expect(html).toContain('data-answers="7" data-cases="4"');
    const md = readFileSync(files().coverage, 'utf8');
    expect(md).toContain(`| Cache-Control: public, max-age=300 \\| no-store | Cache-Control: ${EXTRA_DIRECTIVE} | 7 answers in 4 cases |`);
  });

  it('when failures share a cause, then it is shown in full once and named for the others', () => {
    expect(result.output).toContain('FAILED getRecipes/second-of-a-cause: Fails with the same cause\nSame      the cause of getRecipes/first-of-a-cause: expected recipes in the registry; received none');
    expect(result.output).toContain('failures with one cause:\n  2 cases: expected recipes in the registry; received none · specification §4.2 bullet 4 [recipes-index]\n    getRecipes/first-of-a-cause, getRecipes/second-of-a-cause');
    const html = readFileSync(files().html, 'utf8');
    expect(html).toContain('the same cause as <a href="#case-getRecipes_first-of-a-cause">');
  });

  it('when a case cites no section, then every report files it under its basis, counted apart from the verdicts', () => {
    expect(result.output).toMatch(/^Reference server's choices +0 +0 +0 +0 +0 +1$/m);
    expect(result.output).toContain('1 case proved only a choice of the reference server, counted apart, neither passed nor failed: 1 matched it, 0 departed from it');
    expect(result.results.find((r) => r.id === 'getRecipes/beyond-the-specification')).toMatchObject({ state: 'reference', reference: 'matched' });
    expect(result.output).not.toMatch(/^\?\./m);
    const junit = readFileSync(files().junit, 'utf8');
    expect(junit).toContain('<testcase classname="vault.reference.getRecipes" name="getRecipes/beyond-the-specification"');
    expect(junit).toContain('<property name="section" value="Reference server&apos;s choices"/>');
    expect(junit).not.toContain('vault.s0');
    const html = readFileSync(files().html, 'utf8');
    expect(html).toContain('Reference server&#39;s choices: 1');
    expect(html).toContain('<td>the reference server&#39;s choice (The specification does not say this; the reference does it.)</td><td><span class="tag matched-reference">');
  });
});

describe('headers of one message', () => {
  it('when two answers are compared, then their dates and request or trace ids are left out, and nothing else', () => {
    for (const name of ['Date', 'X-Request-Id', 'Request-Id', 'X-Trace-Id', 'traceparent', 'X-Correlation-ID', 'X-Amzn-Trace-Id', 'CF-Ray']) expect(isPerMessage(name), name).toBe(true);
    for (const name of ['Cache-Control', 'X-Content-Type-Options', 'Referrer-Policy', 'Vary', 'Content-Security-Policy']) expect(isPerMessage(name), name).toBe(false);
    const page = { 'cache-control': 'no-store', 'x-request-id': 'a1', traceparent: '00-aa-01', date: 'Mon', 'content-type': 'text/html' };
    const json = { 'cache-control': 'no-store', 'x-request-id': 'b2', traceparent: '00-bb-01', date: 'Tue', 'content-type': 'application/json' };
    expect(lastingHeaders(page, ['content-type'])).toEqual(lastingHeaders(json, ['content-type']));
    expect(lastingHeaders({ ...page, 'cache-control': 'private' }, ['content-type'])).not.toEqual(lastingHeaders(json, ['content-type']));
  });
});
