/** Checks a DomainError by what a client would receive for it: the status and code the error middleware answers with. */
import assert from 'node:assert/strict';
import { domainRefusal } from '../../src/apis/http/error-middleware.js';
import { DomainError } from '../../src/platform/domain-error.js';

export interface ExpectedAnswer {
  status: number;
  code?: string;
  field?: string;
}

/** A validator for `assert.throws` / `assert.rejects`: fails with the mismatch rather than returning false. */
export function answeredWith(expected: ExpectedAnswer): (error: unknown) => true {
  return (error) => {
    assert.ok(error instanceof DomainError, `expected a DomainError, got ${String(error)}`);
    const answer = domainRefusal(error);
    assert.equal(answer.status, expected.status, error.message);
    if (expected.code !== undefined) assert.equal(answer.code, expected.code, error.message);
    if (expected.field !== undefined) assert.equal(error.field, expected.field, error.message);
    return true;
  };
}
