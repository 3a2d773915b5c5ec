/** The e-mail block of recommendation links as plain HTML: tables and inline styles, which e-mail clients render alike. */

export interface EmailBlockOptions {
  /** Absolute server URL; e-mails have no page to resolve a relative one against. */
  apiBase: string;
  widgetId: string;
  /** A datasource or identity repository of the tenant. */
  datasourceId: string;
  userId: string;
  /** Number of positions, 1 to 20. */
  count: number;
  /** Positions per table row. */
  columns: number;
  /** Width and height of each image in pixels. */
  imageSize: number;
  /** Alt text of an image without a known title; ` {n}` is appended. */
  alt: string;
  /** Product titles by position (the picks when the block was made), used as alt text where known. */
  titles?: readonly string[];
  /**
   * `userId` is the e-mail platform's merge tag (such as `*|EMAIL|*` or `{{ contact.id }}`), which the
   * platform replaces when it sends: it is kept as written (still HTML-escaped) instead of URL-encoded.
   */
  mergeTag: boolean;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** `{apiBase}/widget/{widget}/recommendations/{datasource}/{user}/{position}/`, every segment encoded. */
export function emailSlotUrl(options: EmailBlockOptions, position: number): string {
  const user = options.mergeTag ? options.userId : encodeURIComponent(options.userId);
  const base = options.apiBase.replace(/\/+$/, '');
  return `${base}/widget/${encodeURIComponent(options.widgetId)}/recommendations/${encodeURIComponent(options.datasourceId)}/${user}/${position}/`;
}

/** Mail templates are 600 px wide: the block never asks for more. */
export const EMAIL_MAX_WIDTH = 600;
/** Padding either side of each image. */
const CELL_PADDING = 8;

/** The image size actually used: the requested one, made smaller when a row of them would pass 600 px. */
export function emailImageSize(imageSize: number, columns: number): number {
  const fits = Math.floor(EMAIL_MAX_WIDTH / Math.max(1, columns)) - 2 * CELL_PADDING;
  return Math.max(1, Math.min(Math.round(imageSize), fits));
}

export function emailRecommendationsHtml(options: EmailBlockOptions): string {
  const size = emailImageSize(options.imageSize, options.columns);
  const cells: string[] = [];
  for (let position = 1; position <= options.count; position++) {
    const slot = emailSlotUrl(options, position);
    const alt = options.titles?.[position - 1] || `${options.alt} ${position}`;
    // width/height attributes for Outlook; the max-width lets phones shrink a row that is wider than the screen.
    cells.push(
      `<td style="padding:${CELL_PADDING}px;" valign="top"><a href="${escapeHtml(`${slot}redirect.html`)}" target="_blank" style="text-decoration:none;">` +
        `<img src="${escapeHtml(`${slot}photo.png`)}" alt="${escapeHtml(alt)}" width="${size}" height="${size}" border="0" ` +
        `style="display:block;width:100%;max-width:${size}px;height:auto;border:0;outline:none;"></a></td>`,
    );
  }
  const rows: string[] = [];
  for (let start = 0; start < cells.length; start += options.columns) {
    rows.push(`  <tr>\n    ${cells.slice(start, start + options.columns).join('\n    ')}\n  </tr>`);
  }
  const width = Math.min(EMAIL_MAX_WIDTH, Math.min(options.columns, options.count) * (size + 2 * CELL_PADDING));
  return `<table role="presentation" width="${width}" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;width:100%;max-width:${width}px;">\n${rows.join('\n')}\n</table>`;
}
