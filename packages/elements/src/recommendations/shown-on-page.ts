/**
 * Widgets on one page take turns: each asks the server to leave out (`idsToBan`) the products shown by
 * the widgets before it, and the page's own product, so a page never shows a product twice. "Before" is
 * a higher `priority` first, then document order (a "recently viewed" row may come last on the page and
 * still keep the products it exists to show).
 */

export interface PageWidget extends Element {
  /** Settles (never rejects) when the widget's current request has finished, shown or not. */
  readonly settled: Promise<void>;
  /** Product ids the widget shows now. */
  shownIds(): readonly string[];
  /** Higher goes first; equal priorities go in document order. */
  readonly turn: number;
}

// Page-wide on purpose: de-duplicating across widgets needs every widget of the page in one registry.
const widgets = new Set<PageWidget>();
/** A URL holds only so many ids; the nearest widgets' come first. */
const MAX_BANNED = 100;

export function joinPage(widget: PageWidget): void {
  widgets.add(widget);
}

export function leavePage(widget: PageWidget): void {
  widgets.delete(widget);
}

/** Waits for the widgets before `widget` (same document or shadow root) and returns what they show. */
export async function shownBefore(widget: PageWidget): Promise<string[]> {
  const root = widget.getRootNode();
  const earlier = [...widgets].filter(
    (other) =>
      other !== widget &&
      other.getRootNode() === root &&
      (other.turn > widget.turn || (other.turn === widget.turn && (widget.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_PRECEDING) !== 0)),
  );
  await Promise.all(earlier.map((other) => other.settled));
  const ids = new Set<string>();
  for (const other of earlier.reverse()) for (const id of other.shownIds()) ids.add(id);
  return [...ids].slice(0, MAX_BANNED);
}
