/** The HTML report's style sheet, inlined into the page: no request, and readable printed or in dark mode. */
export const HTML_STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #fff; --panel: #f6f8fa; --line: #d0d7de;
  --ok: #1a7f37; --ok-bg: #dafbe1; --bad: #cf222e; --bad-bg: #ffebe9; --warn: #9a6700; --warn-bg: #fff8c5; --quiet: #6e7781; --quiet-bg: #eaeef2; --info: #0969da; --info-bg: #ddf4ff; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #8d96a0; --bg: #0d1117; --panel: #161b22; --line: #30363d;
  --ok: #3fb950; --ok-bg: #12261e; --bad: #f85149; --bad-bg: #2d1214; --warn: #d29922; --warn-bg: #2e2411; --quiet: #8d96a0; --quiet-bg: #21262d; --info: #58a6ff; --info-bg: #0c2d4b; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header, main { max-width: 1400px; margin: 0 auto; padding: 0 1.5rem; }
header { padding-top: 1.5rem; }
h1 { margin: 0 0 .25rem; font-size: 1.6rem; }
h2 { margin: 2rem 0 .75rem; padding-bottom: .3rem; border-bottom: 1px solid var(--line); font-size: 1.3rem; }
h3 { font-size: 1.05rem; margin: 0 0 .4rem; }
h4 { margin: .8rem 0 .3rem; font-size: .9rem; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { margin: 0; padding: .6rem .8rem; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
.target, .note, .proves, .path { color: var(--muted); }
nav a { margin-right: 1rem; }
a { color: var(--info); }
.exit { display: inline-block; padding: .35rem .7rem; border-radius: 6px; font-weight: 600; }
.exit-0 { background: var(--ok-bg); color: var(--ok); }
.exit-1, .exit-2, .exit-3 { background: var(--bad-bg); color: var(--bad); }
.exit-4, .exit-130, .exit-143, .interrupted { background: var(--warn-bg); color: var(--warn); }
.counts { display: flex; flex-wrap: wrap; gap: .75rem; margin: 1rem 0; padding: 0; }
.count { min-width: 9rem; padding: .6rem .9rem; border: 1px solid var(--line); border-left-width: 6px; border-radius: 6px; background: var(--panel); }
.count dt { color: var(--muted); font-size: .85rem; }
.count dd { margin: 0; font-size: 1.8rem; font-weight: 700; }
.count.passed { border-left-color: var(--ok); } .count.failed, .count.error { border-left-color: var(--bad); }
.count.known, .count.not-run { border-left-color: var(--warn); } .count.deviation { border-left-color: var(--info); }
.count.zero dd { color: var(--muted); }
.failure { margin: 1rem 0; padding: 1rem; border: 1px solid var(--line); border-left: 6px solid var(--bad); border-radius: 6px; }
.failure.error { border-left-color: var(--warn); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .5rem 0; }
.facts dt { font-weight: 600; } .facts dd { margin: 0; white-space: pre-wrap; }
.exchange { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
@media (max-width: 800px) { .exchange { grid-template-columns: 1fr; } }
.tag { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .8rem; font-weight: 600; vertical-align: middle; }
.tag.passed { background: var(--ok-bg); color: var(--ok); } .tag.failed, .tag.unexpected-pass { background: var(--bad-bg); color: var(--bad); }
.tag.error, .tag.known, .tag.not-run, .tag.not-tested { background: var(--warn-bg); color: var(--warn); }
.tag.matched-reference, .tag.departed-reference, .tag.untestable { background: var(--muted-bg, #eee); color: inherit; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; font-size: .9rem; }
th, td { border: 1px solid var(--line); padding: .35rem .5rem; text-align: left; vertical-align: top; }
thead th { background: var(--panel); position: sticky; top: 0; }
.scroll { overflow-x: auto; }
table.coverage td { white-space: normal; } table.coverage th[scope=row] { white-space: nowrap; }
.ratio { text-align: right; font-variant-numeric: tabular-nums; }
.chip { display: inline-block; margin: 1px 0; padding: 0 .4rem; border-radius: 4px; font: 12px/1.6 ui-monospace, Menlo, Consolas, monospace; border: 1px solid transparent; }
.chip.exercised { background: var(--ok-bg); color: var(--ok); border-color: var(--ok); }
.chip.untestable { background: var(--quiet-bg); color: var(--quiet); border: 1px dashed var(--quiet); }
.chip.missed { background: var(--warn-bg); color: var(--warn); border-color: var(--warn); }
.reasons { padding-left: 1.2rem; } .reasons .n { font-weight: 700; margin-left: .4rem; }
.ids { columns: 2; font-size: .85rem; }
.none { color: var(--muted); font-style: italic; }
details { margin: .5rem 0; } summary { cursor: pointer; color: var(--info); }
@media print { details > *:not(summary) { display: block; } thead th { position: static; } }
`;
