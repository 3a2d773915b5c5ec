/** Small SVG charts drawn by hand (no charting library: a bar and a line chart are a few dozen lines), each with a text alternative. */
import { html, svg, type TemplateResult } from 'lit';

export interface Bar {
  label: string;
  value: number;
}

const WIDTH = 560;
const HEIGHT = 180;
const PAD = { top: 12, right: 12, bottom: 56, left: 48 };

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(value));
  return Math.ceil(value / step) * step;
}

function axis(max: number, format: (n: number) => string) {
  const inner = HEIGHT - PAD.top - PAD.bottom;
  return [0, 0.5, 1].map((f) => {
    const y = PAD.top + inner * (1 - f);
    return svg`<line x1=${PAD.left} x2=${WIDTH - PAD.right} y1=${y} y2=${y} class="grid"></line><text x=${PAD.left - 6} y=${y + 4} text-anchor="end">${format(max * f)}</text>`;
  });
}

/** A bar chart; `summary` is what a screen reader hears instead of the drawing. */
export function barChart(options: { title: string; bars: Bar[]; format?: (n: number) => string; id: string }): TemplateResult {
  const format = options.format ?? ((n: number) => String(Math.round(n)));
  const max = niceMax(Math.max(0, ...options.bars.map((b) => b.value)));
  const inner = { w: WIDTH - PAD.left - PAD.right, h: HEIGHT - PAD.top - PAD.bottom };
  const slot = inner.w / Math.max(1, options.bars.length);
  const summary = options.bars.map((b) => `${b.label}: ${format(b.value)}`).join(', ');
  return html`<figure class="chart" data-chart=${options.id}>
    <figcaption>${options.title}</figcaption>
    <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label=${`${options.title}. ${summary || 'No data yet.'}`}>
      ${axis(max, format)}
      ${options.bars.map((bar, i) => {
        const h = (bar.value / max) * inner.h;
        const x = PAD.left + i * slot + slot * 0.15;
        return svg`<rect class="bar" x=${x} y=${PAD.top + inner.h - h} width=${slot * 0.7} height=${h} data-value=${bar.value}><title>${bar.label}: ${format(bar.value)}</title></rect>
          <text x=${x + slot * 0.35} y=${HEIGHT - PAD.bottom + 14} text-anchor="end" transform="rotate(-35 ${x + slot * 0.35} ${HEIGHT - PAD.bottom + 14})" class="tick">${bar.label.length > 14 ? `${bar.label.slice(0, 13)}…` : bar.label}</text>`;
      })}
    </svg>
  </figure>`;
}

/** A line chart of evenly spaced points (activities per minute). */
export function lineChart(options: { title: string; points: Bar[]; id: string }): TemplateResult {
  const max = niceMax(Math.max(0, ...options.points.map((p) => p.value)));
  const inner = { w: WIDTH - PAD.left - PAD.right, h: HEIGHT - PAD.top - PAD.bottom };
  const step = inner.w / Math.max(1, options.points.length - 1);
  const path = options.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${(PAD.left + i * step).toFixed(1)},${(PAD.top + inner.h - (p.value / max) * inner.h).toFixed(1)}`).join(' ');
  const total = options.points.reduce((sum, p) => sum + p.value, 0);
  const first = options.points[0]?.label ?? '';
  const last = options.points.at(-1)?.label ?? '';
  return html`<figure class="chart" data-chart=${options.id}>
    <figcaption>${options.title}</figcaption>
    <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label=${`${options.title}: ${total} in all from ${first} to ${last}, at most ${Math.max(0, ...options.points.map((p) => p.value))} in one minute.`}>
      ${axis(max, (n) => String(Math.round(n)))}
      <path class="line" d=${path} data-total=${total}></path>
      <text x=${PAD.left} y=${HEIGHT - PAD.bottom + 14} class="tick">${first}</text>
      <text x=${WIDTH - PAD.right} y=${HEIGHT - PAD.bottom + 14} text-anchor="end" class="tick">${last}</text>
    </svg>
  </figure>`;
}
