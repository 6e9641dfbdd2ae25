/**
 * Credentials the runner holds (API keys, the driver's tokens, account-holder link tokens): never
 * printed. Every report passes its text through `mask`, which replaces each with a placeholder
 * that says what it was.
 */
export class Secrets {
  private readonly values = new Map<string, string>();

  add(value: string | undefined, label: string): void {
    if (value && value.length >= 6 && !this.values.has(value)) this.values.set(value, label);
  }

  /** `placeholder` writes the stand-in in the report's own syntax (HTML escapes its angle brackets). */
  mask(text: string, placeholder: (label: string) => string = (label) => `<${label}>`): string {
    let out = text;
    // Longest first, so a secret that contains another is replaced whole.
    for (const [value, label] of [...this.values].sort((a, b) => b[0].length - a[0].length)) {
      if (out.includes(value)) out = out.split(value).join(placeholder(label));
    }
    return out;
  }
}
