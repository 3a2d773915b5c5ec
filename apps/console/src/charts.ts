/**
 * Small charts drawn by hand (no charting library: a few dozen lines each), each with a text
 * alternative. Every word and number is HTML text at the page's size, never SVG text scaled with the
 * drawing, so axes stay legible at any width; the SVG holds only the marks.
 */
import { html, svg, type TemplateResult } from 'lit';

export interface Bar {
  label: string;
  value: number;
}

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(value));
  return Math.ceil(value / step) * step;
}

/** The labels under a time axis: first, middle and last (all of them when there are few). */
function ticks(labels: readonly string[]): string[] {
  if (labels.length <= 3) return [...labels];
  return [labels[0]!, labels[Math.floor((labels.length - 1) / 2)]!, labels.at(-1)!];
}

function frame(id: string, title: string, summary: string, max: string, marks: TemplateResult, labels: readonly string[]): TemplateResult {
  return html`<figure class="chart" data-chart=${id}>
    <figcaption>${title}</figcaption>
    <div class="plot">
      <span class="y-max" aria-hidden="true">${max}</span>
      <svg viewBox="0 0 100 50" preserveAspectRatio="none" role="img" aria-label=${`${title}. ${summary}`}>${marks}</svg>
      <span class="y-zero" aria-hidden="true">0</span>
    </div>
    <div class="x-axis" aria-hidden="true">${ticks(labels).map((label) => html`<span>${label}</span>`)}</div>
  </figure>`;
}

/** Columns over time (searches per day); `summary` for a screen reader lists every value. */
export function columnChart(options: { id: string; title: string; bars: Bar[]; format?: (n: number) => string }): TemplateResult {
  const format = options.format ?? ((n: number) => Math.round(n).toLocaleString());
  const max = niceMax(Math.max(0, ...options.bars.map((b) => b.value)));
  const slot = 100 / Math.max(1, options.bars.length);
  const summary = options.bars.map((b) => `${b.label}: ${format(b.value)}`).join(', ') || 'No data yet.';
  const marks = svg`<line class="grid" x1="0" x2="100" y1="25" y2="25"></line>${options.bars.map((bar, i) => {
    const h = (bar.value / max) * 50;
    return svg`<rect class="bar" x=${i * slot + slot * 0.15} y=${50 - h} width=${slot * 0.7} height=${h} data-value=${bar.value}><title>${bar.label}: ${format(bar.value)}</title></rect>`;
  })}`;
  return frame(options.id, options.title, summary, format(max), marks, options.bars.map((b) => b.label));
}

/** A line of evenly spaced points (activities per minute). */
export function lineChart(options: { id: string; title: string; points: Bar[]; unit: string }): TemplateResult {
  const max = niceMax(Math.max(0, ...options.points.map((p) => p.value)));
  const step = 100 / Math.max(1, options.points.length - 1);
  const path = options.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${(i * step).toFixed(2)},${(50 - (p.value / max) * 50).toFixed(2)}`).join(' ');
  const total = options.points.reduce((sum, p) => sum + p.value, 0);
  const first = options.points[0]?.label ?? '';
  const last = options.points.at(-1)?.label ?? '';
  const summary = `${total} in all from ${first} to ${last}, at most ${Math.max(0, ...options.points.map((p) => p.value))} in one ${options.unit}.`;
  const marks = svg`<line class="grid" x1="0" x2="100" y1="25" y2="25"></line><path class="line" d=${path} data-total=${total} vector-effect="non-scaling-stroke"></path>`;
  return frame(options.id, options.title, summary, max.toLocaleString(), marks, options.points.map((p) => p.label));
}

/** Horizontal bars with their names and values as text: for named things (widgets), whatever the names' length. */
export function barList(options: { id: string; title: string; bars: Bar[]; format: (n: number) => string }): TemplateResult {
  const max = Math.max(0, ...options.bars.map((b) => b.value));
  return html`<figure class="chart" data-chart=${options.id}>
    <figcaption>${options.title}</figcaption>
    <ul class="bar-list">
      ${options.bars.map(
        (bar) => html`<li data-value=${bar.value}>
          <span class="bar-label">${bar.label}</span>
          <span class="bar-track" aria-hidden="true"><span class="bar-fill" style="width: ${max > 0 ? (bar.value / max) * 100 : 0}%"></span></span>
          <span class="bar-value">${options.format(bar.value)}</span>
        </li>`,
      )}
    </ul>
  </figure>`;
}
