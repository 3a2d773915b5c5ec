/** The refusal of a whole batch: issues ordered by item index so a client reads them top to bottom. */
import type { FieldIssue } from '@discovery-kit/protocol';
import { DomainError } from '../../platform/domain-error.js';

function indexOf(issue: FieldIssue): number {
  const match = /^\[(\d+)\]/.exec(issue.path);
  return match === null ? -1 : Number(match[1]);
}

/** `noun` is `items` or `actions`; `outcome` says what did not happen (`stored`, `applied`). */
export function batchRefusal(issues: FieldIssue[], total: number, noun: string, outcome: string): DomainError {
  const sorted = [...issues].sort((a, b) => indexOf(a) - indexOf(b));
  const bad = new Set(sorted.map(indexOf)).size;
  const first = sorted[0]!;
  return new DomainError('invalid', `${bad} of ${total} ${noun} ${bad === 1 ? 'is' : 'are'} invalid; nothing was ${outcome}. ${first.path}: ${first.message}`, { code: 'invalid_body', issues: sorted });
}
