/**
 * Errors domain code throws for a caller's mistake, without speaking HTTP: the error middleware maps
 * each kind to its status, so services stay free of the API layer.
 */
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'too_large';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** The request field the error is about, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
