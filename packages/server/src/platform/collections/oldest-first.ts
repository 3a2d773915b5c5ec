/**
 * Deleting a Map's (or Set's) oldest entry in constant time. `map.delete(map.keys().next().value)`
 * starts a new walk from the front at each call, and the front is where the earlier deletions left
 * their holes: V8 keeps them until the table is rebuilt, so each call walks past all of them. Under
 * steady eviction that cost grew with the map (the profile history's eviction was 15 µs per activity at
 * 200,000 profiles: docs/scale-out.md). Here each map keeps one iterator, which holds its place across
 * deletions, insertions and clears, and each call takes the next entry from it. An entry deleted and
 * set again (a least-recently-used refresh) comes up again at its new place, so the order is the map's own.
 */
const walks = new WeakMap<object, Iterator<unknown>>();

/** Deletes the map's oldest entry (by insertion order) and returns its key; undefined when the map is empty. */
export function deleteOldest<K>(map: Map<K, unknown> | Set<K>): K | undefined {
  const found = nextOldest(map);
  if (found === undefined) return undefined;
  map.delete(found.key);
  return found.key;
}

/** Deletes the map's oldest entry and returns it as `[key, value]`; undefined when the map is empty. */
export function takeOldest<K, V>(map: Map<K, V>): [K, V] | undefined {
  const found = nextOldest(map);
  if (found === undefined) return undefined;
  const value = map.get(found.key) as V;
  map.delete(found.key);
  return [found.key, value];
}

/** Moves the map's walk past its oldest entry and names it: the caller deletes it. */
function nextOldest<K>(map: Map<K, unknown> | Set<K>): { key: K } | undefined {
  if (map.size === 0) return undefined;
  for (;;) {
    let walk = walks.get(map) as Iterator<K> | undefined;
    if (walk === undefined) walks.set(map, (walk = map.keys()));
    const next = walk.next();
    if (next.done !== true) return { key: next.value };
    // A finished walk sees nothing added after it ended: a fresh one starts from the front.
    walks.delete(map);
  }
}
