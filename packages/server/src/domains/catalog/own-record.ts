/** Plain-object maps keyed by client ids: own properties only, so an id like `__proto__` is just an id. */
export function getOwn<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

export function deleteOwn<T>(record: Record<string, T>, key: string): void {
  if (Object.hasOwn(record, key)) delete record[key];
}

