/**
 * A tenant's model files in the blob store: `models/<tenant>.item-model` (with the file adapter under
 * `<DATA_DIR>`, where backups and docs/operations.md expect it) and `models/<tenant>.ranker`. A read
 * gives the stored model or the reason it cannot be used (the trainer then trains again).
 */
import type { BlobStore } from '../../platform/blob-store/blob-store.js';
import { decodeModel, encodeModel, type StoredModel } from './item-model.js';
import { decodeRanker, encodeRanker, type StoredRanker } from './learned-ranker.js';

const modelBlob = (tenantId: string) => `models/${tenantId}.item-model`;
const rankerBlob = (tenantId: string) => `models/${tenantId}.ranker`;

/** The stored model, or why there is none to use (the caller retrains). */
function readStoredModel(blobs: BlobStore, tenantId: string): Promise<StoredModel | { problem: string }> {
  return readBlob(blobs, modelBlob(tenantId), 'model', (data) => decodeModel(data, tenantId));
}

/** The stored ranker, or why there is none to use for this tenant (the caller retrains). */
function readStoredRanker(blobs: BlobStore, tenantId: string): Promise<StoredRanker | { problem: string }> {
  return readBlob(blobs, rankerBlob(tenantId), 'ranker', (data) => decodeRanker(data, tenantId));
}

/**
 * Stores the ranker (when the training made one), then the item model: a reader that finds the new item
 * model always finds its ranker beside it (`readModelFiles`).
 */
export async function storeModelFiles(blobs: BlobStore, tenantId: string, model: StoredModel, ranker: StoredRanker | undefined): Promise<void> {
  if (ranker !== undefined) await blobs.put(rankerBlob(tenantId), encodeRanker(ranker));
  await blobs.put(modelBlob(tenantId), encodeModel(model, tenantId));
}

/** A read that met a ranker newer than the item model (a store between the two reads) reads the item model again, this many times at most. */
const PAIR_RETRIES = 5;
const PAIR_RETRY_MS = 200;

/**
 * The item model and (with `withRanker`) its ranker, read as a pair: the item model first, then the
 * ranker. A ranker of a later training than the item model means another process stored both between
 * the two reads (the ranker goes first), so the item model is read again until it is that training's:
 * a start or a load that met a store no longer takes the pair for a damaged one and trains again.
 */
export async function readModelFiles(blobs: BlobStore, tenantId: string, withRanker: boolean): Promise<{ model: StoredModel | { problem: string }; ranker: StoredRanker | { problem: string } | undefined }> {
  let model = await readStoredModel(blobs, tenantId);
  const ranker = withRanker ? await readStoredRanker(blobs, tenantId) : undefined;
  for (let retry = 0; retry < PAIR_RETRIES && newer(ranker, model); retry++) {
    if (retry > 0) await new Promise((resolve) => setTimeout(resolve, PAIR_RETRY_MS));
    model = await readStoredModel(blobs, tenantId);
  }
  return { model, ranker };
}

function newer(ranker: StoredRanker | { problem: string } | undefined, model: StoredModel | { problem: string }): boolean {
  return ranker !== undefined && !('problem' in ranker) && !('problem' in model) && ranker.trainedAt > model.info.trainedAt;
}

async function readBlob<T>(blobs: BlobStore, name: string, what: string, decode: (data: Buffer) => T | { problem: string }): Promise<T | { problem: string }> {
  let data: Buffer | undefined;
  try {
    data = await blobs.get(name);
  } catch (error) {
    return { problem: `unreadable ${what} file (${(error as Error).message})` };
  }
  return data === undefined ? { problem: `no ${what} file yet` } : decode(data);
}
