/** Settings of one server instance. main.ts reads them from the environment; tests pass them directly. */
export interface ServerConfig {
  /** Validate every response against the document (on by default; off only for production use). */
  validateResponses: boolean;
  /** Enables the back office under /_fixtures when set; requests must send it as a Bearer token. */
  adminToken?: string;
  /** Deployment settings: limit id (from the document's x-limits) → value replacing the default. */
  limitOverrides: Record<string, number>;
  /** The other reading of section 8.1 item 4: a request refused after the per-minute count stays counted (http/rate-limits.ts). */
  countRefusedRequests: boolean;
  /** Lets a webhook receiver on this machine (a loopback address, over http:// too) take deliveries; on in the `npm start` demo only (VAULT_WEBHOOKS_ALLOW_LOOPBACK). */
  allowLoopbackWebhooks: boolean;
}

export const defaultConfig: ServerConfig = {
  validateResponses: true,
  limitOverrides: {},
  countRefusedRequests: false,
  allowLoopbackWebhooks: false,
};

/** Parses VAULT_LIMITS, e.g. `credential-changes-per-account=40,catalog-per-key=100000`. */
export function parseLimitOverrides(value: string | undefined, known: Set<string>): Record<string, number> {
  const out: Record<string, number> = {};
  if (!value) return out;
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [id, raw] = part.split('=');
    const n = Number(raw);
    if (!id || !known.has(id)) throw new Error(`VAULT_LIMITS: unknown limit "${id}" (known: ${[...known].join(', ')})`);
    if (!Number.isInteger(n) || n < 0) throw new Error(`VAULT_LIMITS: ${id} needs a whole number, got "${raw}"`);
    out[id] = n;
  }
  return out;
}
