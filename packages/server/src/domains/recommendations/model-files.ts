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
export function readStoredModel(blobs: BlobStore, tenantId: string): Promise<StoredModel | { problem: string }> {
  return readBlob(blobs, modelBlob(tenantId), 'model', (data) => decodeModel(data, tenantId));
}

/** The stored ranker, or why there is none to use for this tenant (the caller retrains). */
export function readStoredRanker(blobs: BlobStore, tenantId: string): Promise<StoredRanker | { problem: string }> {
  return readBlob(blobs, rankerBlob(tenantId), 'ranker', (data) => decodeRanker(data, tenantId));
}

/** Stores the item model, then its ranker (when the training made one). */
export async function storeModelFiles(blobs: BlobStore, tenantId: string, model: StoredModel, ranker: StoredRanker | undefined): Promise<void> {
  await blobs.put(modelBlob(tenantId), encodeModel(model, tenantId));
  if (ranker !== undefined) await blobs.put(rankerBlob(tenantId), encodeRanker(ranker));
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
