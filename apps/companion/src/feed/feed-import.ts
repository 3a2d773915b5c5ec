/**
 * Imports a product feed into a new catalog version: a first pass reads and checks every record
 * (naming line and field), infers the attribute types and groups variants by item_group_id; a
 * second pass sends the items in batches through the catalog API; then, if asked, promotes the
 * version. A dry run stops after the first pass. Nothing is sent while any record is invalid,
 * unless invalid records are to be skipped.
 */
import { CatalogClient } from './catalog-client.js';
import { TypeInference, mapRecord, typedAttributes, type AttributeType, type FeedIssue, type FeedItem, type MappingOptions } from './feed-mapping.js';
import { readFeed, type FeedFormat } from './feed-records.js';

export interface FeedImportOptions {
  file: string;
  format: FeedFormat;
  mapping: MappingOptions;
  /** Attribute types given by the operator (an item schema's attributes); inferred otherwise. */
  schema?: { name?: string; attributes: Array<{ name: string; type: AttributeType }> };
  /** Keep the first record of a repeated id (a transactions export) instead of refusing the feed. */
  duplicates: 'error' | 'first' | 'last';
  skipInvalid: boolean;
  dryRun: boolean;
  promote: boolean;
  batchSize?: number;
  client?: CatalogClient;
  onProgress?: (phase: 'check' | 'load', done: number, total: number) => void;
}

export interface FeedImportSummary {
  records: number;
  products: number;
  variants: number;
  /** Invalid records left out (with --skip-invalid). */
  skipped: number;
  /** Records whose id an earlier (or later, with --duplicates last) record already gave. */
  duplicates: number;
  issues: FeedIssue[];
  attributes: Record<string, AttributeType>;
  catalogVersion?: number;
  state?: string;
  deletedVersion?: number;
}

export class FeedImportError extends Error {
  constructor(
    message: string,
    readonly summary: FeedImportSummary,
  ) {
    super(message);
  }
}

const PRODUCT = 'product';
const VARIANT = 'variant';
/** Issues printed in full; the rest are counted. */
export const SHOWN_ISSUES = 50;

interface Group {
  line: number;
  minPrice?: number;
  inStock: boolean;
}

export async function importFeed(options: FeedImportOptions): Promise<FeedImportSummary> {
  const batchSize = options.batchSize ?? 2000;
  const issues: FeedIssue[] = [];
  const inference = new TypeInference();
  const given = options.schema === undefined ? undefined : Object.fromEntries(options.schema.attributes.map((a) => [a.name, a.type]));
  const firstLine = new Map<string, number>();
  const keptLine = new Map<string, number>();
  const groups = new Map<string, Group>();
  let records = 0;
  let invalidRecords = 0;

  // First pass: check every record and learn the columns' types and the variant groups.
  for await (const record of readFeed(options.file, options.format)) {
    records++;
    const mapped = mapRecord(record, options.mapping);
    const recordIssues = [...mapped.issues];
    const item = mapped.item;
    if (item !== undefined && given !== undefined) {
      for (const [name, value] of Object.entries(item.attributes)) {
        if (given[name] === 'INTEGER' && !(typeof value === 'number' || /^-?\d+$/.test(value))) {
          recordIssues.push({ line: record.line, field: name, message: `"${String(value).slice(0, 40)}" is not an integer (INTEGER attribute of the schema)` });
        }
      }
    }
    if (item !== undefined && recordIssues.length === 0) {
      const earlier = firstLine.get(item.id);
      if (earlier !== undefined && options.duplicates === 'error') {
        recordIssues.push({ line: record.line, field: 'id', message: `"${item.id}" repeats the id of line ${earlier} (--duplicates first|last keeps one)` });
      } else if (item.groupId !== undefined && firstLine.has(item.groupId) && !groups.has(item.groupId)) {
        recordIssues.push({ line: record.line, field: 'item_group_id', message: `"${item.groupId}" is also the id of the product on line ${firstLine.get(item.groupId)}` });
      } else if (groups.has(item.id)) {
        recordIssues.push({ line: record.line, field: 'id', message: `"${item.id}" is also an item_group_id (line ${groups.get(item.id)!.line})` });
      }
    }
    if (recordIssues.length > 0 || item === undefined) {
      invalidRecords++;
      issues.push(...recordIssues);
      continue;
    }
    if (!firstLine.has(item.id)) firstLine.set(item.id, record.line);
    if (options.duplicates === 'last' || !keptLine.has(item.id)) keptLine.set(item.id, record.line);
    inference.observe(item.attributes);
    if (item.groupId !== undefined) {
      const group = groups.get(item.groupId) ?? { line: record.line, inStock: false };
      const price = item.attributes.price;
      if (typeof price === 'number' && (group.minPrice === undefined || price < group.minPrice)) group.minPrice = price;
      if (item.attributes.in_stock === 1) group.inStock = true;
      groups.set(item.groupId, group);
    }
    if (records % 1000 === 0) options.onProgress?.('check', records, records);
  }

  const types = given ?? inference.types();
  const summary: FeedImportSummary = {
    records,
    products: 0,
    variants: 0,
    skipped: invalidRecords,
    duplicates: records - invalidRecords - keptLine.size,
    issues,
    attributes: types,
  };
  if (issues.length > 0 && !options.skipInvalid) {
    throw new FeedImportError(`${invalidRecords} of ${records} records are invalid; nothing was imported.`, summary);
  }
  if (keptLine.size === 0) throw new FeedImportError('The feed holds no valid record; nothing was imported.', summary);
  if (options.dryRun || options.client === undefined) {
    // The same counts the import would make, without sending anything.
    let grouped = 0;
    if (groups.size > 0) for await (const item of keptItems(options, keptLine)) if (item.groupId !== undefined) grouped++;
    summary.variants = grouped;
    summary.products = keptLine.size - grouped + groups.size;
    return summary;
  }

  // Second pass: the catalog version, then the items in batches (parents before their variants).
  const client = options.client;
  const catalogs = await client.listCatalogs();
  if (catalogs.length >= 2) {
    const inactive = catalogs.filter((c) => c.state === 'inactive').sort((a, b) => a.version - b.version)[0];
    if (inactive === undefined) throw new FeedImportError('Two catalogs are held and none is inactive: wait for the promotion in progress to end.', summary);
    await client.deleteCatalog(inactive.version);
    summary.deletedVersion = inactive.version;
  }
  const attributeList = Object.entries(types).map(([name, type]) => ({ name, type }));
  const schemaName = options.schema?.name ?? PRODUCT;
  const schema = await client.createSchema({ name: schemaName, attributes: attributeList, nestedItemSchemas: [{ name: VARIANT, attributes: attributeList }] });
  const catalog = await client.createCatalog([{ name: schema.name, version: schema.version }]);
  summary.catalogVersion = catalog.version;

  const sentGroups = new Set<string>();
  let batch: unknown[] = [];
  let sent = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await client.loadItems(batch);
    sent += batch.length;
    batch = [];
    options.onProgress?.('load', sent, keptLine.size + groups.size);
  };
  for await (const item of keptItems(options, keptLine)) {
    const attributes = typedAttributes(item.attributes, types);
    if (item.groupId === undefined) {
      batch.push({ id: item.id, catalogVersion: catalog.version, type: schemaName, attributes });
      summary.products++;
    } else {
      if (!sentGroups.has(item.groupId)) {
        // The product a shopper sees: the first variant's text, the lowest price, in stock if any variant is.
        const group = groups.get(item.groupId)!;
        const parent: Record<string, string | number> = { ...attributes };
        if (group.minPrice !== undefined && types.price !== undefined) parent.price = group.minPrice;
        if (types.in_stock !== undefined) parent.in_stock = group.inStock ? 1 : 0;
        batch.push({ id: item.groupId, catalogVersion: catalog.version, type: schemaName, attributes: parent });
        sentGroups.add(item.groupId);
        summary.products++;
      }
      batch.push({ id: item.id, catalogVersion: catalog.version, type: VARIANT, parentId: item.groupId, attributes });
      summary.variants++;
    }
    if (batch.length >= batchSize) await flush();
  }
  await flush();

  if (options.promote) {
    let record = await client.promote(catalog.version);
    while (record.state === 'building') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      record = await client.getCatalog(catalog.version);
    }
    summary.state = record.state;
    if (record.state !== 'active') throw new FeedImportError(`The promotion of catalog version ${catalog.version} failed: ${record.promotionError ?? record.state}`, summary);
  } else summary.state = 'inactive';
  return summary;
}

/** The valid, kept records again, in file order (second pass). */
async function* keptItems(options: FeedImportOptions, keptLine: Map<string, number>): AsyncGenerator<FeedItem> {
  for await (const record of readFeed(options.file, options.format)) {
    const { item } = mapRecord(record, options.mapping);
    if (item === undefined || keptLine.get(item.id) !== record.line) continue;
    yield item;
  }
}
