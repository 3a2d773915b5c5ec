/**
 * How every command-line tool reads its arguments: Node's parseArgs with `--help` added. `--help`
 * prints the tool's usage and exits 0; an argument the tool cannot take (an unknown option, a missing
 * value) exits 2 with the reason and the usage; `fail` ends a tool the same way for its own checks.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

const HELP = { help: { type: 'boolean' } } as const;

type Options = NonNullable<ParseArgsConfig['options']>;

export function readArgs<const Tool extends Options>(usage: string, options: Tool, args: string[] = process.argv.slice(2)) {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: { ...options, ...HELP } });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${usage}`);
  }
  // Inside this generic function the values' type is not yet resolved; `help` is there (HELP).
  if ((parsed.values as { help?: boolean }).help === true) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}

/** Ends the tool with `message` on stderr: exit code 2 for a command line it cannot take, 1 for a failure. */
export function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}
