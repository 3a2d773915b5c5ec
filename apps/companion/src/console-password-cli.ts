/**
 * Entry point of `npm run console:password`: reads a password from standard input (never from the
 * command line, which shells keep in their history) and prints the scrypt hash to put in a tenant's
 * `consoleUsers[].passwordHash`.
 */
import { createInterface } from 'node:readline';
import { hashPassword } from '@discovery-kit/server';

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password (input is shown; pipe it in to keep it off screen): ');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

const password = await readPassword();
if (password.length < 10) {
  console.error('Choose a password of at least 10 characters.');
  process.exit(2);
}
console.log(await hashPassword(password));
