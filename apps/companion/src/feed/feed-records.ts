/**
 * Reads a product feed file as records of named text fields, each with the line it starts on, so
 * that every later complaint can say "line 12, field price". Formats: CSV and TSV (header row,
 * RFC 4180 quoting), JSON Lines, and Google Merchant Center XML (RSS 2.0 items or Atom entries,
 * `g:` fields). A `.gz` file is decompressed on the fly. Files are streamed, never read whole.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';

export type FeedFormat = 'csv' | 'tsv' | 'jsonl' | 'xml';

export interface FeedRecord {
  /** 1-based line of the file where the record starts. */
  line: number;
  fields: Record<string, string>;
}

export class FeedFormatError extends Error {}

/** The format from `--format`, else from the file name (`.gz` looked through). */
export function detectFormat(file: string, asked?: string): FeedFormat {
  const known: FeedFormat[] = ['csv', 'tsv', 'jsonl', 'xml'];
  if (asked !== undefined) {
    if ((known as string[]).includes(asked)) return asked as FeedFormat;
    throw new FeedFormatError(`--format must be one of ${known.join(', ')}, not "${asked}".`);
  }
  const name = file.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.tsv') || name.endsWith('.txt')) return 'tsv';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'jsonl';
  if (name.endsWith('.xml') || name.endsWith('.rss') || name.endsWith('.atom')) return 'xml';
  throw new FeedFormatError(`Cannot tell the format of ${file} from its name: give --format csv, tsv, jsonl or xml.`);
}

function openText(file: string): Readable {
  const raw = createReadStream(file);
  if (!file.toLowerCase().endsWith('.gz')) return raw.setEncoding('utf8');
  const gunzip = createGunzip();
  // pipeline() forwards a read error to gunzip, so the reader below rejects instead of hanging.
  pipeline(raw, gunzip, () => {});
  return gunzip.setEncoding('utf8');
}

export function readFeed(file: string, format: FeedFormat): AsyncGenerator<FeedRecord> {
  const text = openText(file);
  if (format === 'jsonl') return readJsonLines(text);
  if (format === 'xml') return readMerchantXml(text);
  return readDelimited(text, format === 'tsv' ? '\t' : ',');
}

/** Splits delimited text into rows of cells, quotes and embedded line breaks included. */
async function* delimitedRows(text: AsyncIterable<string>, delimiter: string): AsyncGenerator<{ line: number; cells: string[] }> {
  // Jumps from one special character to the next instead of walking every character: a 500,000-row
  // export is read in a few seconds.
  const special = delimiter === '\t' ? /["\t\n\r]/g : /[",\n\r]/g;
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let rowLine = 1;
  let pendingCR = false;
  let carry = '';
  for await (const chunk of text) {
    const data = carry + chunk;
    carry = '';
    let i = 0;
    while (i < data.length) {
      if (pendingCR) {
        pendingCR = false;
        if (data[i] === '\n') {
          i++;
          continue;
        }
      }
      if (quoted) {
        const close = data.indexOf('"', i);
        if (close === -1) {
          const part = data.slice(i);
          for (let k = 0; k < part.length; k++) if (part.charCodeAt(k) === 10) line++;
          cell += part;
          break;
        }
        const part = data.slice(i, close);
        for (let k = 0; k < part.length; k++) if (part.charCodeAt(k) === 10) line++;
        cell += part;
        if (close + 1 === data.length) {
          // Cannot tell "" (an escaped quote) from the closing quote until the next chunk.
          carry = '"';
          break;
        }
        if (data[close + 1] === '"') {
          cell += '"';
          i = close + 2;
        } else {
          quoted = false;
          afterQuote = true;
          i = close + 1;
        }
        continue;
      }
      special.lastIndex = i;
      const found = special.exec(data);
      if (found === null) {
        cell += data.slice(i);
        break;
      }
      const at = found.index;
      cell += data.slice(i, at);
      const c = data[at]!;
      i = at + 1;
      if (c === '"') {
        if (cell === '' && !afterQuote) quoted = true;
        else cell += c;
      } else if (c === delimiter) {
        cells.push(cell);
        cell = '';
        afterQuote = false;
      } else {
        cells.push(cell);
        if (!(cells.length === 1 && cells[0] === '')) yield { line: rowLine, cells };
        cells = [];
        cell = '';
        afterQuote = false;
        pendingCR = c === '\r';
        line++;
        rowLine = line;
      }
    }
  }
  if (carry !== '') {
    quoted = false;
  }
  if (quoted) throw new FeedFormatError(`line ${rowLine}: a quoted field is never closed`);
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    yield { line: rowLine, cells };
  }
}

async function* readDelimited(text: AsyncIterable<string>, delimiter: string): AsyncGenerator<FeedRecord> {
  let header: string[] | undefined;
  for await (const { line, cells } of delimitedRows(text, delimiter)) {
    if (header === undefined) {
      header = cells.map((name, i) => (i === 0 ? name.replace(/^\uFEFF/, '') : name).trim());
      continue;
    }
    if (cells.length > header.length) throw new FeedFormatError(`line ${line}: ${cells.length} fields, but the header names ${header.length}`);
    const fields: Record<string, string> = {};
    header.forEach((name, i) => {
      fields[name] = cells[i] ?? '';
    });
    yield { line, fields };
  }
}

async function* lines(text: AsyncIterable<string>): AsyncGenerator<{ line: number; text: string }> {
  let rest = '';
  let line = 0;
  for await (const chunk of text) {
    rest += chunk;
    let cut: number;
    while ((cut = rest.indexOf('\n')) !== -1) {
      yield { line: ++line, text: rest.slice(0, cut).replace(/\r$/, '') };
      rest = rest.slice(cut + 1);
    }
  }
  if (rest !== '') yield { line: ++line, text: rest };
}

async function* readJsonLines(text: AsyncIterable<string>): AsyncGenerator<FeedRecord> {
  for await (const { line, text: content } of lines(text)) {
    if (content.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch (error) {
      throw new FeedFormatError(`line ${line}: not JSON (${(error as Error).message})`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new FeedFormatError(`line ${line}: expected one JSON object per line`);
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (value === null || value === undefined) continue;
      fields[key] = typeof value === 'object' ? JSON.stringify(value) : String(value);
    }
    yield { line, fields };
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function xmlText(raw: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw);
  if (cdata !== null) return cdata[1]!;
  return raw
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name] ?? whole;
    })
    .trim();
}

/** One `<item>` or `<entry>`: its direct child elements, `g:` prefix dropped; nested structures (shipping) are skipped. */
function merchantFields(block: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const child = /<([\w.-]+:)?([\w.-]+)(\s[^>]*)?(\/>|>([\s\S]*?)<\/\1?\2\s*>)/g;
  let match: RegExpExecArray | null;
  while ((match = child.exec(block)) !== null) {
    const name = match[2]!;
    const body = match[5];
    if (body === undefined) {
      // Atom's <link href="..."/>.
      const href = /\shref\s*=\s*"([^"]*)"/.exec(match[3] ?? '');
      if (name === 'link' && href !== null && fields.link === undefined) fields.link = xmlText(href[1]!);
      continue;
    }
    if (body.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '').includes('<')) continue;
    // Repeated fields (additional_image_link, product_type) keep the first value, as Merchant Center does for single-valued ones.
    if (fields[name] === undefined) fields[name] = xmlText(body);
  }
  return fields;
}

async function* readMerchantXml(text: AsyncIterable<string>): AsyncGenerator<FeedRecord> {
  let buffer = '';
  let consumedLines = 1;
  let sawRoot = false;
  for await (const chunk of text) {
    buffer += chunk;
    if (!sawRoot && /<(rss|feed|channel)[\s>]/.test(buffer)) sawRoot = true;
    for (;;) {
      const start = /<(item|entry)[\s>]/.exec(buffer);
      if (start === null) {
        // Keep a tail that might hold the start of the next tag.
        const keep = buffer.length > 64 ? buffer.length - 64 : 0;
        consumedLines += countLines(buffer, 0, keep);
        buffer = buffer.slice(keep);
        break;
      }
      const tag = start[1]!;
      const end = buffer.indexOf(`</${tag}>`, start.index);
      if (end === -1) {
        consumedLines += countLines(buffer, 0, start.index);
        buffer = buffer.slice(start.index);
        break;
      }
      const line = consumedLines + countLines(buffer, 0, start.index);
      const block = buffer.slice(start.index + start[0].length, end);
      consumedLines = line + countLines(buffer, start.index, end + tag.length + 3);
      buffer = buffer.slice(end + tag.length + 3);
      yield { line, fields: merchantFields(block) };
    }
  }
  if (!sawRoot) throw new FeedFormatError('not a Google Merchant Center XML feed: no <rss>, <channel> or <feed> element');
}

function countLines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) count++;
  return count;
}
