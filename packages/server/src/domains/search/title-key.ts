/** Fingerprints of folded titles: the exact-title bonus compares integers before strings. */

/** A cheap fingerprint of a folded title, so the exact-title check reads a typed array, not every document. */
export function titleKey(title: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < title.length; i++) h = Math.imul(h ^ title.charCodeAt(i), 0x01000193);
  return h | 0;
}
