/**
 * Whether a parsed JSON value holds an own `__proto__` key anywhere. JSON.parse makes such a key
 * an ordinary property (also when the text spells it with escapes, `"\u005f_proto__"`), while a
 * zod copy turns it into a prototype: a loader that accepts a document with a compiled validator
 * and uses it as it is sends such a document to zod instead.
 */
export function hasOwnProtoKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasOwnProtoKey);
  if (!value || typeof value !== 'object') return false;
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || hasOwnProtoKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}
