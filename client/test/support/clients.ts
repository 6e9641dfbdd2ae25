// Clients for tests: settings from an empty environment plus what the test passes, warnings kept
// for assertions instead of printed.
import { expect } from 'vitest';
import { createVaultClient, OPERATIONS, VaultApiError, type OperationId, type VaultClient, type VaultClientOptions } from '../../index.js';
import type { Sandbox } from './sandbox.js';

/** Every operation some test called through a client of clientFor, in this test file. */
export const calledOperations = new Set<OperationId>();

export function clientFor(sandbox: Pick<Sandbox, 'base'>, apiKey?: string, options: VaultClientOptions = {}): VaultClient & { warnings: string[] } {
  const warnings: string[] = [];
  const client = createVaultClient({ env: {}, apiUrl: sandbox.base, apiKey, onWarning: (w) => warnings.push(w), ...options });
  const recorded = Object.fromEntries(
    (Object.keys(OPERATIONS) as OperationId[]).map((id) => [
      id,
      (...args: unknown[]) => {
        calledOperations.add(id);
        return (client[id] as (...a: unknown[]) => Promise<unknown>)(...args);
      },
    ]),
  );
  return { ...client, ...recorded, warnings } as VaultClient & { warnings: string[] };
}

/** The VaultApiError a call rejects with; fails the test when it resolves or throws anything else. */
export async function apiError(call: Promise<unknown>): Promise<VaultApiError> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected a VaultApiError, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VaultApiError);
  return error as VaultApiError;
}

/** An approved signup: a login created by `key`'s agent, with the approval's answer. */
export async function approvedLogin(sandbox: Sandbox, accountId: string, client: VaultClient, website = 'example.com') {
  const filed = await client.fileSignupRequest({ website, email: 'jane@example.com' });
  await sandbox.holder.decideSignup(accountId, filed.requestId, 'approve');
  const answer = await client.getSignupRequest({ id: filed.requestId });
  if (answer.status !== 'approved') throw new Error(`signup ${filed.requestId} is ${answer.status}`);
  return { requestId: filed.requestId, ...answer };
}
