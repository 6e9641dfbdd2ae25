/**
 * JSON text with numbers JSON.stringify cannot write: a number too large for a double (`1e400`)
 * is valid JSON, and the document says how it is read, so generated bodies must be able to say it.
 */
export class RawNumber {
  constructor(readonly text: string) {}
}

export function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawNumber) {
      raws.push(v.text);
      return `\u0000raw${raws.length - 1}\u0000`;
    }
    if (typeof v === 'number' && !Number.isFinite(v)) {
      raws.push(v > 0 ? '1e400' : '-1e400');
      return `\u0000raw${raws.length - 1}\u0000`;
    }
    return v;
  });
  return text.replace(/"\\u0000raw(\d+)\\u0000"/g, (_m, i: string) => raws[Number(i)]!);
}
