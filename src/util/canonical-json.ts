/**
 * JSON with object keys sorted at every level: what the trust digests and the dedup keys of hooks
 * are made of, so its output must never change by a byte (stored trust records hold digests of it).
 */

/** JSON with object keys sorted at every level and undefined members dropped. */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_k, v: unknown) => {
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const keys = Object.keys(v);
        sortStrings(keys);
        const sorted: Record<string, unknown> = {};
        for (let i = 0; i < keys.length; i++) sorted[keys[i]!] = (v as Record<string, unknown>)[keys[i]!];
        return sorted;
      }
      return v;
    }) ?? 'null'
  );
}

/**
 * Sort in place as Array#sort sorts strings (by UTF-16 code units). By insertion for the few keys
 * of a config object: Array#sort allocates its working state on every call, which for the
 * thousands of small objects of one trust assessment was a quarter of its garbage, enough for
 * one more young-generation collection in a dispatch.
 */
function sortStrings(keys: string[]): void {
  if (keys.length > 24) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
}
