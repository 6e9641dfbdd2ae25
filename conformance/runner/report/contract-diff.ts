import { readFileSync } from 'node:fs';
import { operationOf, type Case } from '../case.js';
import { UsageError } from '../options.js';

interface ContractDiff {
  from?: string;
  to?: string;
  changes?: { operationId?: string | null; method?: string; path?: string; breaking?: boolean; message?: string }[];
}

/**
 * For a contract change under review (`npm run check:breaking` writes dist/contract/diff.json):
 * each changed operation, whether the change breaks, and the catalogue cases that cover it, so a
 * reviewer sees which cases the change touches.
 */
export function changedOperationsReport(file: string, cases: Case[]): string {
  let diff: ContractDiff;
  try {
    diff = JSON.parse(readFileSync(file, 'utf8')) as ContractDiff;
  } catch (e) {
    throw new UsageError(`cannot read the contract diff ${file}: ${(e as Error).message}`);
  }
  const byOp = new Map<string, { breaking: boolean; messages: string[] }>();
  for (const change of diff.changes ?? []) {
    const op = change.operationId ?? '(document)';
    const entry = byOp.get(op) ?? { breaking: false, messages: [] };
    entry.breaking ||= change.breaking === true;
    if (change.message) entry.messages.push(change.message);
    byOp.set(op, entry);
  }
  const operations = [...byOp.keys()].filter((op) => op !== '(document)').length;
  const lines = [`contract changes ${diff.from ?? '?'} → ${diff.to ?? '?'}: ${operations} operation(s) changed${byOp.has('(document)') ? ', and the document as a whole' : ''}`];
  for (const [op, entry] of byOp) {
    const covering = cases.filter((c) => operationOf(c) === op).map((c) => c.id);
    lines.push(`  ${op}${entry.breaking ? ' (breaking)' : ''}: ${entry.messages.length} change(s); ${covering.length ? `cases: ${covering.join(', ')}` : 'no case covers it'}`);
  }
  return `${lines.join('\n')}\n`;
}
