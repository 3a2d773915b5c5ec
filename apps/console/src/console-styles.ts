/** The console's one stylesheet, in the toolkit's design language (the same --discovery-* tokens, overridable). */
export const CONSOLE_CSS = `
:root { --discovery-font: system-ui, sans-serif; --discovery-accent: #1f5fbf; --discovery-text: #1d2330; --discovery-muted: #555d6b; --discovery-border: #c9ced8; --discovery-surface: #ffffff; --discovery-danger: #a61b1b; --discovery-ok: #1d6b36; }
body { margin: 0; font-family: var(--discovery-font); color: var(--discovery-text); background: #f4f6f9; }
dk-console { display: block; }
header.top { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; padding: .5rem 1rem; background: var(--discovery-surface); border-bottom: 1px solid var(--discovery-border); }
header.top .brand { font-weight: 700; margin-right: auto; }
header.top .environment { display: inline-flex; gap: .5rem; align-items: center; }
header.top label { display: inline; margin: 0; }
nav ul { display: flex; gap: .25rem; list-style: none; margin: 0; padding: .5rem 1rem; flex-wrap: wrap; }
nav a { display: inline-block; padding: .4rem .75rem; border-radius: 4px; color: var(--discovery-accent); text-decoration: none; }
nav a[aria-current='page'] { background: var(--discovery-accent); color: #fff; }
main { padding: 1rem; max-width: 70rem; }
main.sign-in { max-width: 24rem; margin: 4rem auto; background: var(--discovery-surface); border: 1px solid var(--discovery-border); border-radius: 8px; }
h1 { font-size: 1.5rem; margin-top: 0; } h2 { font-size: 1.15rem; }
section { background: var(--discovery-surface); border: 1px solid var(--discovery-border); border-radius: 8px; padding: .75rem 1rem; margin: 1rem 0; }
label { display: block; font-weight: 600; margin: .5rem 0 .2rem; }
label.check { display: inline-flex; gap: .25rem; font-weight: 400; margin-right: 1rem; }
input, select, textarea { font: inherit; padding: .35rem .5rem; border: 1px solid var(--discovery-muted); border-radius: 4px; max-width: 100%; box-sizing: border-box; }
textarea { width: 100%; }
form.inline { display: flex; flex-wrap: wrap; align-items: end; gap: .5rem; } form.inline label { margin: 0; }
button { font: inherit; padding: .35rem .75rem; border-radius: 4px; border: 1px solid var(--discovery-accent); background: var(--discovery-accent); color: #fff; cursor: pointer; margin: .25rem .25rem .25rem 0; }
button[disabled] { background: #e4e7ec; color: #3d4452; border-color: #8a919e; cursor: default; }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; background: var(--discovery-surface); margin: .5rem 0; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--discovery-border); vertical-align: top; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
small { color: var(--discovery-muted); }
.status { min-height: 1.5em; margin: .25rem 0; } .status.saved { color: var(--discovery-ok); } .status.failed, .error { color: var(--discovery-danger); } .status.saving { color: var(--discovery-muted); }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 1rem; }
figure.chart { margin: 0; background: var(--discovery-surface); border: 1px solid var(--discovery-border); border-radius: 8px; padding: .5rem; }
figure.chart figcaption { font-weight: 600; margin-bottom: .25rem; }
figure.chart svg { width: 100%; height: auto; font-size: 11px; fill: var(--discovery-muted); }
.grid { stroke: #e2e5ea; } .bar { fill: var(--discovery-accent); } .line { fill: none; stroke: var(--discovery-accent); stroke-width: 2; }
.verdict { font-size: 1.1rem; font-weight: 600; }
pre.item { background: var(--discovery-surface); border: 1px solid var(--discovery-border); padding: .5rem; overflow: auto; }
`;
