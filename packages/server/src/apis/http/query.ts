/** Query parameters that must be given at most once: a repeated one could be read differently by two middlewares, so it is refused. */
import { HttpError } from './errors.js';

/** The parameter's single value; 400 naming `field` when it is repeated. */
export function singleParam(value: string | string[] | undefined, name: string, field = name): string | undefined {
  if (Array.isArray(value)) throw new HttpError(400, 'invalid_parameter', `The "${name}" query parameter is given more than once.`, { field });
  return value;
}
