import type { ApiDocument, LimitDef, PlanName } from './document.js';

/**
 * The figures a deployment enforces: the document's `x-limits` and `x-plans`, with the deployment
 * settings the runner was told about (`--limit id=value`) in place of the defaults. Section 9 item 4
 * lets a deployment change the values marked `deploymentSetting`; any other override is refused.
 */
export class Limits {
  constructor(
    readonly doc: ApiDocument,
    readonly overrides: Record<string, number> = {},
  ) {
    for (const id of Object.keys(overrides)) {
      const def = doc.limits.get(id);
      if (!def) throw new Error(`--limit ${id}: the document has no limit of that id (known: ${[...doc.limits.keys()].join(', ')})`);
      if (!def.deploymentSetting) throw new Error(`--limit ${id}: not a deployment setting; the specification fixes its value`);
    }
  }

  def(id: string): LimitDef {
    return this.doc.limit(id);
  }

  /** The value on a plan; `Infinity` where the plan has no limit. */
  value(id: string, plan: PlanName = 'Free'): number {
    const override = this.overrides[id];
    if (override !== undefined) return override;
    const def = this.def(id);
    if (def.value !== undefined) return def.value;
    const planValue = def.plan ? this.doc.plans[plan]?.[def.plan] : undefined;
    if (typeof planValue === 'number') return planValue;
    if (planValue === null) return Number.POSITIVE_INFINITY;
    throw new Error(`limit ${id} has no value for plan ${plan}`);
  }

  /** The window of a rate limit, in milliseconds. */
  windowMs(id: string): number {
    const w = this.def(id).window;
    if (!w) throw new Error(`limit ${id} has no window`);
    return w.seconds * 1000;
  }

  /** Where the figure is written, for failure reports. */
  pointer(id: string): string {
    return `#/x-limits/${id}`;
  }
}
