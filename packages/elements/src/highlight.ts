/**
 * Matched words marked in text from the server's offsets: the text is split and each range wrapped in
 * <mark> by Lit (or DOM calls in a shop template), so catalog text is only ever text, never markup.
 */
import { html } from 'lit';
import type { TemplateResult } from 'lit';

export type Ranges = ReadonlyArray<readonly [number, number]>;

/** Well-formed ranges only: whole numbers inside the text, sorted, overlaps merged; anything else is dropped. */
export function cleanRanges(value: unknown, length: number): Array<[number, number]> {
  if (!Array.isArray(value)) return [];
  const ranges: Array<[number, number]> = [];
  for (const entry of value.slice(0, 100)) {
    if (!Array.isArray(entry)) continue;
    const [start, end] = entry as unknown[];
    if (!Number.isInteger(start) || !Number.isInteger(end)) continue;
    const from = Math.max(0, start as number);
    const to = Math.min(length, end as number);
    if (from < to) ranges.push([from, to]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

/** Alternating plain and marked pieces of `text`. */
export function splitMarked(text: string, ranges: Ranges): Array<{ text: string; marked: boolean }> {
  const pieces: Array<{ text: string; marked: boolean }> = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) pieces.push({ text: text.slice(at, start), marked: false });
    pieces.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), marked: false });
  return pieces;
}

export function renderMarked(text: string, ranges: Ranges | undefined): TemplateResult | string {
  if (!ranges || ranges.length === 0) return text;
  return html`${splitMarked(text, ranges).map((piece) => (piece.marked ? html`<mark part="mark">${piece.text}</mark>` : piece.text))}`;
}

/** The same in a shop template's element: text nodes and <mark> elements. */
export function fillMarked(element: Element, text: string, ranges: Ranges | undefined): void {
  element.textContent = '';
  for (const piece of splitMarked(text, ranges ?? [])) {
    if (!piece.marked) element.append(piece.text);
    else {
      const mark = document.createElement('mark');
      mark.textContent = piece.text;
      element.append(mark);
    }
  }
}
