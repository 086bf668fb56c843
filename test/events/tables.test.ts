/**
 * The generated tables (src/events/tables.generated.ts) are what the zod schemas give: the lean
 * paths read them instead of loading zod, so a schema change that is not regenerated would make
 * dispatch fill, lint and sample from stale shapes.
 */
import { expect, test } from 'vitest';
import { deriveEventTables } from '../../src/events/derive.js';
import { FILLERS, INPUT_KEYS, SAMPLE_INPUT, SPECIFIC_OUTPUT, TOP_LEVEL_OUTPUT } from '../../src/events/tables.generated.js';
import { EVENT_NAMES } from '../../src/events/facts.js';

const REGENERATE = 'src/events/tables.generated.ts is stale: run `npm run gen:tables`';

test('the generated tables equal what the schemas give, key order included', () => {
  const t = deriveEventTables();
  // JSON text, not toEqual: key order is part of the answer (fillers are added in schema order).
  expect(JSON.stringify(FILLERS), REGENERATE).toBe(JSON.stringify(t.fillers));
  expect(JSON.stringify(SPECIFIC_OUTPUT), REGENERATE).toBe(JSON.stringify(t.specificOutput));
  expect(JSON.stringify(TOP_LEVEL_OUTPUT), REGENERATE).toBe(JSON.stringify(t.topLevelOutput));
  expect(JSON.stringify(INPUT_KEYS), REGENERATE).toBe(JSON.stringify(t.inputKeys));
  expect(JSON.stringify(SAMPLE_INPUT), REGENERATE).toBe(JSON.stringify(t.sampleInput));
});

test('every event has its row, and the rows are not trivially empty', () => {
  for (const table of [FILLERS, SPECIFIC_OUTPUT, INPUT_KEYS, SAMPLE_INPUT]) expect(Object.keys(table)).toEqual(EVENT_NAMES);
  // The common required fields are filled on every event; PreToolUse's own as well.
  expect(FILLERS.PreToolUse).toEqual({ session_id: '', transcript_path: '', cwd: '', tool_name: '', tool_input: {} });
  expect(SPECIFIC_OUTPUT.PermissionRequest.decision).toEqual(expect.arrayContaining(['behavior']));
  expect(TOP_LEVEL_OUTPUT).toEqual(expect.arrayContaining(['continue', 'hookSpecificOutput', 'decision']));
});
