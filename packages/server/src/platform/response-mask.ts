/**
 * Response masks in the json-mask style integrations already send: `a,b` picks fields, `a/b` and
 * `a.b` are paths, `a(b,c)` a sub-selection, `*` any key. Arrays are masked element by element.
 * Written here rather than per API because search and recommendations both take `customResponseMask`.
 */
import { DomainError } from './domain-error.js';

/** Key → what to keep below it (`true`: the whole value). */
export type MaskTree = Map<string, MaskTree | true>;

export function parseMask(source: string, field = 'options.customResponseMask'): MaskTree | undefined {
  if (source.trim() === '') return undefined;
  let at = 0;
  const fail = (expected: string): never => {
    const found = at >= source.length ? 'the end of the mask' : `'${source[at]}'`;
    throw new DomainError('invalid', `Mask syntax error at position ${at}: expected ${expected}, found ${found}.`, { field, code: 'invalid_parameter' });
  };
  const skip = (): void => {
    while (at < source.length && /\s/.test(source[at]!)) at++;
  };
  const key = (): string => {
    skip();
    const match = /^[^,()/.\s]+/.exec(source.slice(at));
    if (match === null) fail('a field name');
    at += match![0].length;
    skip();
    return match![0];
  };
  const merge = (into: MaskTree, name: string, sub: MaskTree | true): void => {
    const had = into.get(name);
    if (had === true || sub === true) into.set(name, true);
    else if (had === undefined) into.set(name, sub);
    else for (const [k, v] of sub) merge(had, k, v);
  };
  const list = (): MaskTree => {
    const tree: MaskTree = new Map();
    for (;;) {
      const path = [key()];
      while (source[at] === '/' || source[at] === '.') {
        at++;
        path.push(key());
      }
      let leaf: MaskTree | true = true;
      if (source[at] === '(') {
        at++;
        leaf = list();
        if (source[at] !== ')') fail("',' or ')'");
        at++;
        skip();
      }
      for (let i = path.length - 1; i > 0; i--) leaf = new Map([[path[i]!, leaf]]);
      merge(tree, path[0]!, leaf);
      if (source[at] !== ',') return tree;
      at++;
    }
  };
  const tree = list();
  if (at < source.length) fail("',' or the end of the mask");
  return tree;
}

export function applyMask(value: unknown, mask: MaskTree | true | undefined): unknown {
  if (mask === undefined || mask === true) return value;
  if (Array.isArray(value)) return value.map((element) => applyMask(element, mask));
  if (value === null || typeof value !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  const wildcard = mask.get('*');
  for (const [name, child] of Object.entries(value)) {
    const sub = mask.get(name) ?? wildcard;
    if (sub === undefined) continue;
    const masked = applyMask(child, sub);
    if (masked !== undefined) out[name] = masked;
  }
  return out;
}
