/**
 * The shape of the older item API's request bodies: action batches (with their composite ids, read
 * for the caller's tenant) and item contexts. A batch's shape issues are not thrown here but handed to
 * the domain with the well-formed actions, since one refusal names every bad action of a batch, those
 * that need stored state to judge (an undeclared context, a replace of a missing item) included.
 */
import { z } from 'zod';
import type { FieldIssue } from '@discovery-kit/protocol';
import type { ItemContextInput, ItemContextRename, LegacyAction, LegacyBatch, LegacyItemData } from '../../domains/catalog/catalog-inputs.js';
import { isLanguageCode } from '../../domains/catalog/iso-639-1.js';
import { parseLegacyId } from '../../domains/catalog/legacy-id.js';
import { catalogUrl } from '../../domains/catalog/catalog-url.js';
import { DomainError } from '../../platform/domain-error.js';
import { formatPath, parseInput, plainObject } from '../http/validate.js';

export const MAX_ACTIONS = 500;

/**
 * No `javascript:` or `data:` URL may reach a storefront's `href` or `src`, nor one a browser reads as
 * another host: the catalog's one rule (catalog-url.ts), stored as it cleans it (ends trimmed).
 */
const SAFE_URL = z
  .string()
  .max(2048)
  .transform((value, ctx) => {
    const url = catalogUrl(value);
    if (url === '') ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL, a protocol-relative "//host/..." URL or a path starting with "/", without control characters or whitespace inside' });
    return url;
  });
/** Keys of `data` beyond the listed fields become custom attributes; this many at most per item. */
const MAX_EXTRA_KEYS = 100;
const LISTED_FIELDS = ['title', 'image', 'url', 'tags', 'booster', 'price', 'recommended', 'attributes', 'l10n'];

const itemData = z.looseObject({
  title: z.string().max(1000).optional(),
  image: SAFE_URL.optional(),
  url: SAFE_URL.optional(),
  tags: z.array(z.string().min(1).max(200)).max(200).optional(),
  booster: z.number().int().optional(),
  price: z.number().int().min(0).optional(),
  recommended: z.boolean().optional(),
  attributes: plainObject.optional(),
  l10n: plainObject
    .superRefine((l10n, ctx) => {
      for (const key of Object.keys(l10n)) if (!isLanguageCode(key)) ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" is not an ISO 639-1 language code` });
    })
    .optional(),
}).superRefine((data, ctx) => {
  const extra = Object.keys(data).filter((key) => !LISTED_FIELDS.includes(key));
  if (extra.length > MAX_EXTRA_KEYS) ctx.addIssue({ code: 'custom', path: [extra[MAX_EXTRA_KEYS]!], message: `at most ${MAX_EXTRA_KEYS} keys beyond the listed fields` });
});

export const actionInput = z.object({
  action: z.enum(['create', 'replace', 'patch', 'delete']),
  id: z.unknown(),
  data: z.unknown().optional(),
});

const CONTEXT_NAME = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-"');
export const createInput = z.strictObject({ name: CONTEXT_NAME, tenant_ids: z.array(z.string().min(1)).min(1).max(100) });
export const renameInput = z.strictObject({ id: z.string().min(1), name: CONTEXT_NAME });

export function parseContextCreate(body: unknown): ItemContextInput {
  return parseInput(createInput, body);
}

export function parseContextRename(body: unknown): ItemContextRename {
  return parseInput(renameInput, body);
}

/**
 * Reads a batch of up to MAX_ACTIONS actions for a caller of `tenantId`. A body that is not an array,
 * or too long, is refused at once; otherwise every action's shape problems are collected, none thrown.
 */
export function parseActionBatch(body: unknown, tenantId: string): LegacyBatch {
  if (!Array.isArray(body)) throw new DomainError('invalid', 'The body must be an array of item actions.', '(body)');
  if (body.length > MAX_ACTIONS) {
    throw new DomainError('limit_exceeded', `At most ${MAX_ACTIONS} actions per call (got ${body.length}); nothing was applied. Split the batch.`, '(body)');
  }
  const issues: FieldIssue[] = [];
  const actions: LegacyAction[] = [];
  for (const [index, raw] of body.entries()) {
    const root = `[${index}]`;
    const shape = actionInput.safeParse(raw);
    if (!shape.success) {
      for (const issue of shape.error.issues) issues.push({ path: formatPath(issue.path, root), message: issue.message });
      continue;
    }
    const id = parseLegacyId(shape.data.id, tenantId);
    if (!id.ok) issues.push({ path: `${root}.id`, message: id.message });
    let data: LegacyItemData = {};
    if (shape.data.action !== 'delete') {
      if (typeof shape.data.data !== 'object' || shape.data.data === null || Array.isArray(shape.data.data)) {
        issues.push({ path: `${root}.data`, message: `${shape.data.action} needs a data object` });
        continue;
      }
      const parsed = itemData.safeParse(shape.data.data);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) issues.push({ path: formatPath(issue.path, `${root}.data`), message: issue.message });
        continue;
      }
      data = parsed.data;
    }
    if (id.ok) actions.push({ index, action: shape.data.action, id: id.value, data });
  }
  return { total: body.length, actions, issues };
}
