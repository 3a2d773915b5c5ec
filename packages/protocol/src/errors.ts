/** The one error body every non-OAuth endpoint answers with. */

/** Stable, machine-readable error codes. Clients branch on these, never on messages. */
export type ErrorCode =
  | 'invalid_json'
  | 'invalid_body'
  | 'invalid_parameter'
  | 'unsupported_media_type'
  | 'body_too_large'
  | 'not_found'
  | 'unknown_tenant'
  | 'unknown_environment'
  | 'unknown_tracker_key'
  | 'unknown_search_token'
  | 'unknown_widget'
  | 'method_not_allowed'
  | 'unauthorized'
  | 'forbidden'
  | 'conflict'
  | 'limit_exceeded'
  | 'rate_limited'
  | 'storage_unavailable'
  | 'ingest_only'
  | 'internal_error';

/** One problem with one field of a request; `path` is a dotted path such as `items[3].attributes.price`. */
export interface FieldIssue {
  path: string;
  message: string;
}

export interface ErrorBody {
  error: {
    status: number;
    code: ErrorCode;
    message: string;
    /** The first offending field, when the error is about one. */
    field?: string;
    /** Every offending field, for requests with several problems (batches). */
    issues?: FieldIssue[];
    /** Echo of the request id, to quote in a support request. */
    requestId?: string;
  };
}
