/** Zod validation issues in plain English, for the people who read hook errors (parse stage). */
import type { z } from 'zod';

/**
 * Zod issues in plain English, for people: the path (`tool_calls[0].tool_name`), what was
 * expected, and what came (read from `raw` when given, else from zod's message).
 */
export function formatZodIssues(error: z.ZodError, raw?: unknown): string {
  return error.issues.map((issue) => `${issuePath(issue.path)}: ${plainIssue(issue, raw)}`).join('; ');
}

function issuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path.map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : i === 0 ? String(seg) : `.${String(seg)}`)).join('');
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  boolean: 'a boolean (true or false)',
  number: 'a number',
  int: 'an integer',
  object: 'an object',
  array: 'an array',
  record: 'an object',
  nonoptional: 'a value',
  null: 'null',
};

function valueAtPath(root: unknown, path: readonly PropertyKey[]): { found: boolean; value?: unknown } {
  let cur = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, seg)) return { found: false };
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return { found: true, value: cur };
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v === 'number' ? 'the number' : typeof v === 'boolean' ? 'the boolean' : typeof v} ${String(v)}`;
}

function got(issue: z.core.$ZodIssue, raw: unknown): string {
  if (raw !== undefined) {
    const at = valueAtPath(raw, issue.path);
    return at.found ? describeValue(at.value) : 'nothing (the field is missing)';
  }
  const received = /received (\w+)/.exec(issue.message)?.[1];
  if (!received) return 'something else';
  return received === 'undefined' ? 'nothing (the field is missing)' : (ARTICLE[received] ?? received);
}

/** zod's own wording; anything else is a message the schema's author wrote, kept as is. */
const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Unrecognized)/;

function plainIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${ARTICLE[issue.expected] ?? issue.expected}, got ${got(issue, raw)}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${got(issue, raw)}`;
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_union': {
      const forms = issue.errors
        .map((branch) => branch.find((i) => i.path.length === 0 && i.code === 'invalid_type') as { expected?: string } | undefined)
        .map((i) => (i?.expected ? (ARTICLE[i.expected] ?? i.expected) : undefined));
      const known = forms.every(Boolean) && forms.length > 0;
      return `expected ${known ? forms.join(' or ') : 'one of the allowed forms'}, got ${got(issue, raw)}`;
    }
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      return `too small: at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`;
    case 'too_big':
      return `too big: at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`;
    default:
      return issue.message;
  }
}
