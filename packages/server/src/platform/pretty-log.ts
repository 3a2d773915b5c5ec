/** Turns pino's JSON lines into one short human line each: time, level, message, then the other fields. */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Always the same on every line, so they only add noise for a reader. */
const HIDDEN = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /[\s="]/.test(value) || value === '' ? JSON.stringify(value) : value;
  if (value !== null && typeof value === 'object' && 'stack' in value && typeof value.stack === 'string') return `\n${value.stack}`;
  return JSON.stringify(value);
}

export function formatLogLine(line: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const label = LEVELS[level] ?? String(level);
  const shownLevel = colour ? `\u001b[${COLOURS[level] ?? '0'}m${label}\u001b[0m` : label;
  const fields = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${formatValue(value)}`)
    .join(' ');
  const message = typeof entry.msg === 'string' ? entry.msg : '';
  return `${time} ${shownLevel} ${message}${fields === '' ? '' : `  ${fields}`}\n`;
}

/** A destination for pino: each write is one JSON line, written on as a readable line. */
export function prettyLogStream(out: NodeJS.WritableStream): { write(chunk: string): void } {
  const colour = 'isTTY' in out && out.isTTY === true && process.env.NO_COLOR === undefined;
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line !== '') out.write(formatLogLine(line, colour));
    },
  };
}
