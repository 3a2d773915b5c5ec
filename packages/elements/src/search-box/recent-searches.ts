/**
 * The shopper's own recent searches, kept in this browser only (localStorage) and never sent anywhere:
 * the search box offers them while its input is empty, with a way to clear them.
 */

const KEY = 'discovery-recent-searches';
/** Longer entries are not kept: a pasted paragraph is not a search worth offering again. */
const MAX_LENGTH = 100;
export const MAX_RECENT = 5;

export function readRecentSearches(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string' && entry !== '').slice(0, MAX_RECENT) : [];
  } catch {
    // Storage blocked (private mode, a sandbox) or a damaged entry: nothing to offer.
    return [];
  }
}

/** Puts `query` first, without repeating it (case-insensitively). */
export function rememberSearch(query: string): void {
  const text = query.trim();
  if (text === '' || text.length > MAX_LENGTH) return;
  const folded = text.toLowerCase();
  const next = [text, ...readRecentSearches().filter((entry) => entry.toLowerCase() !== folded)].slice(0, MAX_RECENT);
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Full or blocked storage: the search itself goes on.
  }
}

export function clearRecentSearches(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing stored that could be read back either.
  }
}
