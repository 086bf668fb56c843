/** A fixture's zod issues as readable, path-qualified messages (fixture.ts). */
import type { z } from 'zod';
import { closest } from '../util/did-you-mean.js';

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (typeof v === 'object') return 'an object';
  return String(v);
}

/** The first item of a string-list field that is not a string, with a hint for YAML's `key: value` trap. */
export function listElementProblem(raw: unknown, path: readonly PropertyKey[]): { index: number; message: string } | undefined {
  const list = valueAt(raw, path);
  if (!Array.isArray(list)) return undefined;
  const index = list.findIndex((v) => typeof v !== 'string');
  if (index < 0) return undefined;
  const item: unknown = list[index];
  const yamlMap = typeof item === 'object' && item !== null && !Array.isArray(item);
  return {
    index,
    message: `expected a string, got ${describe(item)}${yamlMap ? ' (in YAML, text with ": " in it is a map: quote it)' : ''}`,
  };
}

export function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown keys ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_type': {
      const actual = raw === undefined ? undefined : valueAt(raw, issue.path);
      if (raw !== undefined && actual === undefined) return `missing required field (expected ${issue.expected})`;
      return raw === undefined ? issue.message : `expected ${issue.expected}, got ${describe(actual)}`;
    }
    case 'invalid_value': {
      const actual = raw === undefined ? undefined : valueAt(raw, issue.path);
      const values = issue.values.map((v) => String(v));
      const hint = typeof actual === 'string' ? closest(actual, values) : undefined;
      return `expected one of ${values.map((v) => JSON.stringify(v)).join(', ')}${raw === undefined ? '' : `, got ${describe(actual)}`}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`;
    }
    case 'invalid_union': {
      const key = String(issue.path[issue.path.length - 1] ?? '');
      const expected =
        key === 'skip'
          ? 'true, false or a reason'
          : key === 'settings' || key === 'plugins'
            ? 'a path or a list of paths'
            : 'a string or a list of strings';
      return `expected ${expected}, got ${describe(raw === undefined ? undefined : valueAt(raw, issue.path))}`;
    }
    case 'too_small':
      return issue.origin === 'string' ? 'must not be empty' : issue.message;
    default:
      return issue.message;
  }
}
