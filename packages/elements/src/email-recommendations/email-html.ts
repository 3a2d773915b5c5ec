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
  /** Alt text of each image; ` {n}` is appended. */
  alt: string;
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

export function emailRecommendationsHtml(options: EmailBlockOptions): string {
  const size = Math.round(options.imageSize);
  const cells: string[] = [];
  for (let position = 1; position <= options.count; position++) {
    const slot = emailSlotUrl(options, position);
    cells.push(
      `<td style="padding:8px;" valign="top"><a href="${escapeHtml(`${slot}redirect.html`)}" target="_blank" style="text-decoration:none;">` +
        `<img src="${escapeHtml(`${slot}photo.png`)}" alt="${escapeHtml(`${options.alt} ${position}`)}" width="${size}" height="${size}" border="0" ` +
        `style="display:block;width:${size}px;height:${size}px;border:0;outline:none;"></a></td>`,
    );
  }
  const rows: string[] = [];
  for (let start = 0; start < cells.length; start += options.columns) {
    rows.push(`  <tr>\n    ${cells.slice(start, start + options.columns).join('\n    ')}\n  </tr>`);
  }
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;">\n${rows.join('\n')}\n</table>`;
}
