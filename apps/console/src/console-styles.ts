/** The console's one stylesheet, in the toolkit's design language (the same --discovery-* tokens, overridable). */
export const CONSOLE_CSS = `
:root { --discovery-font: system-ui, sans-serif; --discovery-accent: #1f5fbf; --discovery-text: #1d2330; --discovery-muted: #555d6b; --discovery-border: #c9ced8; --discovery-surface: #ffffff; --discovery-danger: #a61b1b; --discovery-ok: #1d6b36; }
body { margin: 0; font-family: var(--discovery-font); color: var(--discovery-text); background: #f4f6f9; }
dk-console { display: block; }
header.top { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; padding: .5rem 1rem; background: var(--discovery-surface); border-bottom: 1px solid var(--discovery-border); }
header.top .brand { font-weight: 700; margin-right: auto; }
header.top .environment { display: inline-flex; gap: .5rem; align-items: center; min-width: 0; max-width: 100%; }
header.top .environment select { min-width: 0; flex: 1 1 auto; }
header.top label { display: inline; margin: 0; }
nav ul { display: flex; gap: .25rem; list-style: none; margin: 0; padding: .5rem 1rem; flex-wrap: wrap; }
nav a { display: inline-block; padding: .4rem .75rem; border-radius: 4px; color: var(--discovery-accent); text-decoration: none; }
nav a[aria-current='page'] { background: var(--discovery-accent); color: #fff; }
main { padding: 1rem; max-width: 70rem; box-sizing: border-box; }
main.sign-in { max-width: 24rem; margin: 4rem auto; background: var(--discovery-surface); border: 1px solid var(--discovery-border); border-radius: 8px; }
h1 { font-size: 1.5rem; margin-top: 0; } h2 { font-size: 1.15rem; }
section { background: var(--discovery-surface); border: 1px solid var(--discovery-border); border-radius: 8px; padding: .75rem 1rem; margin: 1rem 0; }
label { display: block; font-weight: 600; margin: .5rem 0 .2rem; }
label.check { display: inline-flex; gap: .25rem; font-weight: 400; margin-right: 1rem; }
input, select, textarea { font: inherit; padding: .35rem .5rem; border: 1px solid var(--discovery-muted); border-radius: 4px; max-width: 100%; box-sizing: border-box; }
textarea { width: 100%; }
form.inline { display: flex; flex-wrap: wrap; align-items: end; gap: .5rem; } form.inline label { margin: 0; }
button { font: inherit; padding: .35rem .75rem; border-radius: 4px; border: 1px solid var(--discovery-accent); background: var(--discovery-accent); color: #fff; cursor: pointer; margin: .25rem .25rem .25rem 0; }
button.secondary, button.toggle { background: var(--discovery-surface); color: var(--discovery-accent); }
button.toggle[aria-pressed='true'] { background: var(--discovery-accent); color: #fff; }
button.danger { background: var(--discovery-surface); color: var(--discovery-danger); border-color: var(--discovery-danger); }
button[disabled] { background: #e4e7ec; color: #3d4452; border-color: #8a919e; cursor: default; }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; background: var(--discovery-surface); margin: .5rem 0; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--discovery-border); vertical-align: top; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
small { color: var(--discovery-muted); }
.status { min-height: 1.5em; margin: .25rem 0; } .status.saved { color: var(--discovery-ok); } .status.failed, .error { color: var(--discovery-danger); } .status.saving { color: var(--discovery-muted); }
.period { display: flex; flex-wrap: wrap; gap: .25rem; align-items: center; }
.range { color: var(--discovery-muted); }
.figures { list-style: none; padding: 0; margin: 1rem 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(10.5rem, 1fr)); gap: .75rem; }
.figures li { background: var(--discovery-surface); border: 1px solid var(--discovery-border); border-radius: 8px; padding: .6rem .75rem; display: flex; flex-direction: column; gap: .15rem; }
.figure-label { color: var(--discovery-muted); font-size: .875rem; } .figure-value { font-size: 1.4rem; }
.change { font-size: .8rem; color: var(--discovery-muted); } .change.up { color: var(--discovery-ok); } .change.down { color: var(--discovery-danger); }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); gap: 1rem; }
figure.chart { margin: 0; background: var(--discovery-surface); border: 1px solid var(--discovery-border); border-radius: 8px; padding: .5rem .75rem; min-width: 0; }
figure.chart figcaption { font-weight: 600; margin-bottom: .5rem; }
.plot { position: relative; padding-left: 3.5rem; }
.plot svg { display: block; width: 100%; height: 8rem; border-left: 1px solid var(--discovery-border); border-bottom: 1px solid var(--discovery-border); }
.y-max, .y-zero { position: absolute; left: 0; width: 3.2rem; text-align: right; font-size: .75rem; color: var(--discovery-muted); }
.y-max { top: -.4rem; } .y-zero { bottom: -.4rem; }
.x-axis { display: flex; justify-content: space-between; padding-left: 3.5rem; font-size: .75rem; color: var(--discovery-muted); margin-top: .25rem; }
.grid { stroke: #e2e5ea; stroke-width: .5; } .bar { fill: var(--discovery-accent); } .line { fill: none; stroke: var(--discovery-accent); stroke-width: 2; }
.bar-list { list-style: none; padding: 0; margin: 0; display: grid; gap: .35rem; }
.bar-list li { display: grid; grid-template-columns: minmax(0, 9rem) 1fr auto; gap: .5rem; align-items: center; font-size: .875rem; }
.bar-label { overflow-wrap: anywhere; } .bar-track { height: .75rem; background: #eef0f4; border-radius: 3px; } .bar-fill { display: block; height: 100%; background: var(--discovery-accent); border-radius: 3px; }
.bar-value { font-variant-numeric: tabular-nums; }
.table-scroll { overflow-x: auto; }
main li, main p { overflow-wrap: anywhere; }
.hint { color: var(--discovery-muted); font-size: .875rem; margin: 0 0 .35rem; }
.fix-panel { border: 2px solid var(--discovery-accent); border-radius: 8px; padding: .75rem 1rem; margin-top: .75rem; }
.fix-panel h3 { margin-top: 0; font-size: 1.05rem; }
.remedies { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 16rem), 1fr)); gap: 1rem; }
.remedies > * { border: 1px solid var(--discovery-border); border-radius: 8px; padding: .5rem .75rem; min-width: 0; }
.remedies input { width: 100%; }
.fix-outcome { margin-top: .75rem; } .fix-hits { display: flex; flex-wrap: wrap; gap: .75rem; padding-left: 1.25rem; }
.fix-hits li { display: flex; gap: .4rem; align-items: center; }
.zero-results li { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .75rem; padding: .2rem 0; }
.picker-row { display: flex; gap: .5rem; align-items: flex-start; flex-wrap: wrap; }
.picker-field { position: relative; flex: 1 1 14rem; min-width: 0; } .picker-field input { width: 100%; }
.picker-list { position: absolute; z-index: 5; left: 0; right: 0; margin: .2rem 0 0; padding: .25rem 0; list-style: none; background: var(--discovery-surface); border: 1px solid var(--discovery-border); border-radius: 6px; box-shadow: 0 4px 16px rgb(0 0 0 / 15%); max-height: 22rem; overflow-y: auto; }
.picker-list li { display: grid; grid-template-columns: 40px 1fr; grid-template-rows: auto auto; column-gap: .6rem; padding: .35rem .6rem; cursor: pointer; }
.picker-list li img, .picker-list .no-photo { grid-row: span 2; border-radius: 4px; width: 40px; height: 40px; background: #eef0f4; }
.picker-list li[aria-selected='true'] { background: #e8effd; }
.picker-meta { color: var(--discovery-muted); font-size: .8rem; }
.picker-status { min-height: 1.2em; margin: .25rem 0; color: var(--discovery-muted); font-size: .875rem; }
fieldset { min-width: 0; }
.strategies ol { padding-left: 1.5rem; margin: .25rem 0 .5rem; } .strategies li { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: .25rem 1rem; padding: .2rem 0; border-bottom: 1px solid var(--discovery-border); }
.moves { display: inline-flex; gap: .25rem; flex-wrap: wrap; }
.add-strategy { display: flex; gap: .25rem; max-width: 100%; } .add-strategy select { min-width: 0; flex: 1 1 0; width: 100%; }
.filter-rows ol { padding-left: 1.5rem; margin: .25rem 0 .5rem; }
.filter-rows li { display: flex; flex-wrap: wrap; align-items: end; gap: .25rem .5rem; padding: .35rem 0; border-bottom: 1px solid var(--discovery-border); }
.filter-rows li label { margin: 0; width: 100%; font-weight: 600; } .filter-rows li input, .filter-rows li select { flex: 1 1 8rem; min-width: 0; }
ol.preview { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(8.5rem, 1fr)); gap: .75rem; }
ol.preview li { display: flex; flex-direction: column; gap: .2rem; background: var(--discovery-surface); border: 1px solid var(--discovery-border); border-radius: 8px; padding: .5rem; }
ol.preview img, ol.preview .no-photo { width: 100%; height: auto; aspect-ratio: 1; border-radius: 6px; background: #eef0f4; }
.verdict { font-size: 1.1rem; font-weight: 600; }
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
table.items img, table.items .no-photo { display: block; width: 48px; height: 48px; object-fit: cover; border-radius: 4px; background: #eef0f4; }
table.items td, table.items th { vertical-align: middle; }
.pager { display: flex; flex-wrap: wrap; gap: .25rem; }
`;
