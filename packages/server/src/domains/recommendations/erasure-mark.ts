/**
 * When a tenant's latest erasure happened, kept in the document `tenants/<tenant>/model-erasures` so
 * that it outlives the process that erased the person and the notice it left on a shared log
 * (`activityLog.erasureNoticeSeconds`). A trainer that starts after both are gone compares it with the
 * stored model's snapshot minute: a model whose data was taken before the erasure is trained again
 * without the person instead of serving until its next scheduled training (docs/privacy.md).
 * The mark names nobody: only a time.
 */
import type { DocumentStore } from '../../platform/store/document-store.js';
import type { ModelInfo } from './item-model.js';

interface ErasureMark {
  /** Clock milliseconds of the latest erasure (0: none yet). */
  at: number;
}

const nameOf = (tenantId: string) => `tenants/${tenantId}/model-erasures`;

/** Records an erasure at `at` (the latest one wins); resolves once durably written. */
export async function markErasure(store: DocumentStore, tenantId: string, at: number): Promise<void> {
  const doc = await store.document<ErasureMark>(nameOf(tenantId), () => ({ at: 0 }));
  await doc.update((data) => {
    data.at = Math.max(data.at ?? 0, at);
  });
}

/** The latest erasure's time (0: none recorded). */
export async function lastErasure(store: DocumentStore, tenantId: string): Promise<number> {
  const doc = await store.document<ErasureMark>(nameOf(tenantId), () => ({ at: 0 }));
  return Number.isFinite(doc.data.at) ? doc.data.at : 0;
}

/**
 * Whether the model's data may hold a person erased at `erasedAt`: its snapshot was taken at or after
 * the erasure only when `snapshotAt` says so (models stored before that field: their training's start,
 * `trainedAt - trainingMs`, less a second for the clocks of two processes).
 */
export function trainedBeforeErasure(info: ModelInfo, erasedAt: number): boolean {
  if (erasedAt <= 0) return false;
  const snapshotAt = info.snapshotAt ?? info.trainedAt - info.trainingMs - 1_000;
  return snapshotAt <= erasedAt;
}
