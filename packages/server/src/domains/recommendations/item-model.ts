/**
 * A trained item-to-item model as requests read it, and the bytes of its file. The file is
 * a JSON header line (format, version, sizes), a JSON line of item ids, then the sparse weights as
 * little-endian typed arrays. Anything that does not read back exactly — missing, truncated, another
 * version — is refused with a reason, and the caller retrains.
 */
import type { SparseWeights } from './ease.js';

export const MODEL_FORMAT = 'discovery-kit/item-model';
/** Bump when the file layout or the meaning of the weights changes: older files are then retrained. */
export const MODEL_VERSION = 3;

export interface ModelInfo {
  trainedAt: number;
  /** Touches and purchases folded when the snapshot was taken. */
  touches: number;
  purchases: number;
  trainingMs: number;
  lambda: number;
  /** Clock milliseconds when its training took the snapshot of the data (absent in older files): an erasure after it is not in it (erasure-mark.ts). */
  snapshotAt?: number;
  /** Whether its training stored a learned ranker beside it (false: too few examples); absent with the ranking off (turned on, a start trains one) and in older files. */
  ranker?: boolean;
}

export interface StoredModel {
  info: ModelInfo;
  /** Item ids of the numbers the weights use. */
  itemIds: string[];
  weights: SparseWeights;
}

/** A model bound to the live item numbering of one tenant's interactions. */
export class ItemModel {
  readonly info: ModelInfo;
  private readonly rowOf: Int32Array;
  private readonly rowOffsets: Int32Array;
  private readonly columns: Int32Array;
  private readonly values: Float32Array;

  /** `numberOf` maps an item id to its live number (undefined: not known here, its weights are dropped). */
  constructor(stored: StoredModel, liveCount: number, numberOf: (itemId: string) => number | undefined) {
    this.info = stored.info;
    const live = Int32Array.from(stored.itemIds, (id) => numberOf(id) ?? -1);
    const { rowItems, rowOffsets, values } = stored.weights;
    this.rowOf = new Int32Array(Math.max(liveCount, 1)).fill(-1);
    rowItems.forEach((item, row) => {
      const n = live[item]!;
      if (n >= 0 && n < this.rowOf.length) this.rowOf[n] = row;
    });
    this.rowOffsets = rowOffsets;
    this.columns = Int32Array.from(stored.weights.columns, (c) => live[c]!);
    this.values = values;
  }

  /** Whether the model has weights for this live item number. */
  covers(item: number): boolean {
    return item < this.rowOf.length && this.rowOf[item]! >= 0;
  }

  /** Adds weight × the item's row into `scores` (by live item number). */
  accumulate(item: number, weight: number, scores: Pick<ScoreBoard, 'add'>): void {
    if (item >= this.rowOf.length) return;
    const row = this.rowOf[item]!;
    if (row < 0) return;
    for (let k = this.rowOffsets[row]!; k < this.rowOffsets[row + 1]!; k++) {
      const column = this.columns[k]!;
      if (column >= 0) scores.add(column, weight * this.values[k]!);
    }
  }

  get rows(): number {
    return this.rowOffsets.length - 1;
  }
}

/** The model as the bytes of its file (stored through the blob port, see model-trainer.ts). */
export function encodeModel(model: StoredModel, tenantId: string): Buffer {
  const { rowItems, rowOffsets, columns, values } = model.weights;
  const header = { format: MODEL_FORMAT, version: MODEL_VERSION, tenant: tenantId, ...model.info, items: model.itemIds.length, rows: rowItems.length, weights: columns.length };
  const parts = [Buffer.from(`${JSON.stringify(header)}\n${JSON.stringify(model.itemIds)}\n`), bytes(rowItems), bytes(rowOffsets), bytes(columns), bytes(values)];
  return Buffer.concat(parts);
}

/** The stored model, or the reason its file's bytes cannot be used (by this tenant). */
export function decodeModel(data: Buffer, tenantId: string): StoredModel | { problem: string } {
  try {
    const head = readFileHead(data, { kind: 'model', format: MODEL_FORMAT, version: MODEL_VERSION, tenantId });
    if ('problem' in head) return head;
    const { header, itemIds, bodyStart } = head;
    const rows = Number(header.rows);
    const weights = Number(header.weights);
    if (!Array.isArray(itemIds) || itemIds.length !== header.items || !Number.isInteger(rows) || !Number.isInteger(weights)) return { problem: 'damaged model header' };
    const expected = bodyStart + 4 * (rows + rows + 1 + weights + weights);
    if (data.length !== expected) return { problem: `truncated model file (${data.length} bytes, expected ${expected})` };
    const take = arrayReader(data, bodyStart);
    const stored: StoredModel = {
      info: {
        trainedAt: Number(header.trainedAt),
        touches: Number(header.touches),
        purchases: Number(header.purchases),
        trainingMs: Number(header.trainingMs),
        lambda: Number(header.lambda),
        ...(typeof header.ranker === 'boolean' ? { ranker: header.ranker } : {}),
        ...(typeof header.snapshotAt === 'number' ? { snapshotAt: header.snapshotAt } : {}),
      },
      itemIds: itemIds.map(String),
      weights: { rowItems: new Int32Array(take(rows)), rowOffsets: new Int32Array(take(rows + 1)), columns: new Int32Array(take(weights)), values: new Float32Array(take(weights)) },
    };
    const bad = stored.weights.columns.some((c) => c < 0 || c >= itemIds.length) || stored.weights.rowItems.some((c) => c < 0 || c >= itemIds.length) || stored.weights.rowOffsets[rows] !== weights;
    return bad ? { problem: 'damaged model weights' } : stored;
  } catch (error) {
    return { problem: `damaged model file (${(error as Error).message})` };
  }
}

/**
 * The two JSON lines that open a model file (its header, then its item ids), checked to be of this kind,
 * version and tenant; its binary arrays start at `bodyStart`. Shared by the item model and the ranker.
 */
export function readFileHead(
  data: Buffer,
  expect: { kind: string; format: string; version: number; tenantId: string },
): { header: Record<string, unknown>; itemIds: unknown; bodyStart: number } | { problem: string } {
  const firstLine = data.indexOf(10);
  const secondLine = firstLine < 0 ? -1 : data.indexOf(10, firstLine + 1);
  if (secondLine < 0) return { problem: `truncated ${expect.kind} file (no header)` };
  const header = JSON.parse(data.subarray(0, firstLine).toString('utf8')) as Record<string, unknown>;
  if (header.format !== expect.format) return { problem: `not a ${expect.kind} file` };
  if (header.version !== expect.version) return { problem: `${expect.kind} file of version ${String(header.version)}, this server reads ${expect.version}` };
  if (header.tenant !== expect.tenantId) return { problem: `${expect.kind} file of another tenant` };
  const itemIds = JSON.parse(data.subarray(firstLine + 1, secondLine).toString('utf8')) as unknown;
  return { header, itemIds, bodyStart: secondLine + 1 };
}

export function bytes(array: Int32Array | Float32Array): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/** Reads `count` 4-byte values at a time from `at` on, each into a buffer of its own (aligned, and not holding the file). */
export function arrayReader(data: Buffer, at: number): (count: number) => ArrayBuffer {
  return (count) => {
    const copy = new Uint8Array(4 * count);
    copy.set(data.subarray(at, at + 4 * count));
    at += 4 * count;
    return copy.buffer;
  };
}

/**
 * Scores by item number in one reusable array, with the list of items touched so that a reset costs
 * only what was used: a query adds tens of thousands of weights, too many for a Map per request.
 */
export class ScoreBoard {
  private scores = new Float64Array(1024);
  private readonly seen: number[] = [];

  add(item: number, value: number): void {
    if (item >= this.scores.length) {
      const bigger = new Float64Array(Math.max(item + 1, this.scores.length * 2));
      bigger.set(this.scores);
      this.scores = bigger;
    }
    if (this.scores[item] === 0) this.seen.push(item);
    this.scores[item]! += value;
    // A sum that lands back on exactly 0 would be listed twice; a tiny nudge keeps it listed once.
    if (this.scores[item] === 0) this.scores[item] = Number.MIN_VALUE;
  }

  get(item: number): number {
    return item < this.scores.length ? this.scores[item]! : 0;
  }

  items(): readonly number[] {
    return this.seen;
  }

  clear(): void {
    for (const item of this.seen) this.scores[item] = 0;
    this.seen.length = 0;
  }
}
