/**
 * A filter that does not parse. A domain error (kind `invalid`, code `invalid_parameter`), so the error
 * middleware answers 400 with the message and field, and the configuration check reports the message
 * under the `where` it came from.
 */
import { DomainError } from '../domain-error.js';

export class FilterSyntaxError extends DomainError {
  constructor(
    /** 0-based character offset in the filter text. */
    readonly position: number,
    readonly expected: string,
    readonly found: string,
    field: string | undefined,
  ) {
    super('invalid', `Filter syntax error at position ${position}: expected ${expected}, found ${found}.`, { field, code: 'invalid_parameter' });
    this.name = 'FilterSyntaxError';
  }
}
