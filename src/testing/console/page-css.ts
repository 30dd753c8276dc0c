/** The console's stylesheet: one column on a narrow window, a grid of cards on a wide one. */
export const CONSOLE_CSS = `:root {
  color-scheme: light;
  --ink: #1b1f24;
  --muted: #4a5360;
  --line: #c9d1db;
  --paper: #ffffff;
  --panel: #f5f7fa;
  --accent: #0b57d0;
  --ok: #146c2e;
  --bad: #b3261e;
  --warn: #7a4b00;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  font-size: 15px;
  line-height: 1.45;
}
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: var(--paper); }
.skip { position: absolute; left: -10000px; }
.skip:focus { left: 0.5rem; top: 0.5rem; background: var(--paper); padding: 0.25rem 0.5rem; z-index: 2; }
.top { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1rem; padding: 0.5rem 1rem; border-bottom: 1px solid var(--line); }
.top h1 { font-size: 1.3rem; margin: 0; }
.top p { margin: 0; color: var(--muted); }
main { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 26rem), 1fr)); gap: 0.75rem; padding: 0.75rem; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.75rem 0.75rem; min-width: 0; }
.panel.wide { grid-column: 1 / -1; }
h2 { font-size: 1.1rem; margin: 0.25rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 0.5rem 0 0.25rem; }
.row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem 0.5rem; margin: 0.4rem 0; }
fieldset { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem 0.5rem; border: 1px solid var(--line); border-radius: 4px; margin: 0; min-width: 0; max-width: 100%; }
legend { padding: 0 0.25rem; font-weight: 600; }
label { font-weight: 600; }
.field { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.4rem; max-width: 100%; }
input, select, button { font: inherit; min-height: 2rem; max-width: 100%; }
input, select { border: 1px solid #6b7584; border-radius: 4px; padding: 0.15rem 0.35rem; background: var(--paper); color: var(--ink); }
input[type="number"] { width: 6rem; }
button { border: 1px solid var(--accent); background: var(--accent); color: #ffffff; border-radius: 4px; padding: 0.2rem 0.7rem; cursor: pointer; }
button.secondary { background: var(--paper); color: var(--accent); }
button.danger { border-color: var(--bad); background: var(--bad); }
button:disabled { background: #e4e8ee; color: #4a5360; border-color: #8a94a3; cursor: not-allowed; }
:focus-visible { outline: 3px solid #f0b400; outline-offset: 2px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 22rem), 1fr)); gap: 0.6rem; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.7rem; min-width: 0; overflow-wrap: anywhere; }
.card h3 { margin-top: 0.1rem; }
.card dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.1rem 0.6rem; margin: 0.25rem 0; }
.card dt { color: var(--muted); }
.card dd { margin: 0; }
.member { border-top: 1px solid var(--line); padding-top: 0.4rem; margin-top: 0.4rem; }
.badge { display: inline-block; border: 1px solid currentColor; border-radius: 999px; padding: 0 0.5rem; font-size: 0.9rem; font-weight: 600; }
.ok { color: var(--ok); }
.bad { color: var(--bad); }
.warn { color: var(--warn); }
.muted { color: var(--muted); }
.message { white-space: pre-wrap; background: #fbfbfc; border: 1px solid var(--line); border-radius: 4px; padding: 0.4rem 0.5rem; margin: 0.3rem 0 0; font-family: inherit; }
.mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9rem; }
.plain { list-style: none; padding: 0; margin: 0.25rem 0; }
.error { grid-column: 1 / -1; border: 2px solid var(--bad); color: var(--bad); background: var(--paper); padding: 0.5rem 0.75rem; border-radius: 6px; font-weight: 600; }
.empty { color: var(--muted); margin: 0.25rem 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
