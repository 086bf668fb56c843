/**
 * `agent-hooks test --update`: record what the hooks did as the cases' expectations, the way
 * snapshot tests do. Expectation fields that still pass are kept as written (a loosened
 * `reason: /rm/` survives an update); failing or missing core fields get the recorded value.
 * `maxDurationMs` is a budget, not a snapshot: it is never changed.
 *
 * JSON files are rewritten with 2-space indentation; YAML files through the `yaml` Document API,
 * touching only the `expect` keys that change, so comments elsewhere are preserved.
 */
import { writeFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { isCollection, parseDocument } from 'yaml';
import { compareField, type Actual, type Mismatch } from './expect.js';
import type { Expectation, Fixture } from './fixture.js';

/** The stable part of a result, as an expectation (no durations, ids or paths). */
export function snapshotExpectation(actual: Actual): Expectation {
  const j = actual.json;
  const e: Expectation = { blocked: j.blocked as boolean, decision: (j.decision as Expectation['decision']) ?? null };
  if (typeof j.reason === 'string') e.reason = j.reason;
  if (j.updatedInput) e.updatedInput = j.updatedInput as Record<string, unknown>;
  if ('updatedOutput' in j) e.updatedOutput = j.updatedOutput;
  const contexts = (j.additionalContext as string[] | undefined) ?? [];
  if (contexts.length > 0) e.additionalContext = contexts;
  const messages = (j.systemMessages as string[] | undefined) ?? [];
  if (messages.length > 0) e.systemMessages = messages;
  if (j.continue === false) {
    e.continue = false;
    if (typeof j.stopReason === 'string') e.stopReason = j.stopReason;
  }
  if (j.eventOutput && Object.keys(j.eventOutput).length > 0) e.eventOutput = j.eventOutput as Record<string, unknown>;
  const hooks = (j.hooks as Array<Record<string, unknown>> | undefined) ?? [];
  e.hooks = hooks.map((h) => {
    const entry: NonNullable<Expectation['hooks']>[number] = { outcome: h.outcome as NonNullable<Expectation['hooks']>[number]['outcome'] };
    if (typeof h.decision === 'string') entry.decision = h.decision as NonNullable<Expectation['hooks']>[number]['decision'];
    return entry;
  });
  return e;
}

function passes(key: keyof Expectation, exp: Expectation, actual: Actual): boolean {
  const out: Mismatch[] = [];
  compareField(key, exp, actual, out);
  return out.length === 0;
}

/** The updated expectation: passing fields kept, the rest recorded. */
export function mergeExpectation(existing: Expectation | undefined, actual: Actual): Expectation {
  const snap = snapshotExpectation(actual);
  const old = existing ?? {};
  const merged: Record<string, unknown> = {};
  const keys = [...Object.keys(old), ...Object.keys(snap).filter((k) => !(k in old))] as Array<keyof Expectation>;
  for (const key of keys) {
    if (key in old && (key === 'maxDurationMs' || passes(key, old, actual))) merged[key] = old[key];
    else if (key in snap) merged[key] = snap[key];
    // A failing expectation with no recorded counterpart (e.g. warnings) is dropped.
  }
  return merged as Expectation;
}

/** Rewrite the fixture file with new expectations (by case index); returns whether the text changed. */
export async function writeExpectations(fixture: Fixture, updates: ReadonlyMap<number, Expectation>): Promise<boolean> {
  if (updates.size === 0) return false;
  const text = fixture.format === 'json' ? updateJson(fixture.text, updates) : updateYaml(fixture.text, updates);
  if (text === fixture.text) return false;
  await writeFile(fixture.file, text);
  return true;
}

function updateJson(text: string, updates: ReadonlyMap<number, Expectation>): string {
  const data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as { cases: Array<Record<string, unknown>> };
  for (const [i, exp] of updates) {
    const c = data.cases[i];
    if (c) c.expect = exp;
  }
  return `${JSON.stringify(data, null, 2)}\n`;
}

function updateYaml(text: string, updates: ReadonlyMap<number, Expectation>): string {
  const doc = parseDocument(text);
  for (const [i, exp] of updates) {
    const at = ['cases', i, 'expect'];
    const current = doc.getIn(at, false);
    const old = (current && typeof current === 'object' && 'toJSON' in current ? (current as { toJSON(): unknown }).toJSON() : undefined) as
      | Record<string, unknown>
      | undefined;
    if (!old || typeof old !== 'object') {
      doc.setIn(at, doc.createNode(exp));
      continue;
    }
    for (const key of Object.keys(old)) if (!(key in exp)) doc.deleteIn([...at, key]);
    for (const [key, value] of Object.entries(exp)) {
      if (key in old && isDeepStrictEqual(old[key], value)) continue; // untouched: keeps its comments and style
      const node = doc.createNode(value);
      // A replaced { flow: collection } stays one.
      const before = doc.getIn([...at, key], true);
      if (isCollection(before) && before.flow && isCollection(node)) node.flow = true;
      doc.setIn([...at, key], node);
    }
  }
  return doc.toString();
}
