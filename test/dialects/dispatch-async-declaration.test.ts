/**
 * dispatch and a hook that declares itself async on its first stdout line: dispatch is one process
 * per event and the agent waits on it, so it waits for the hook (engine option
 * waitForAsyncDeclaration) and the context printed after the declaration goes with this answer
 * instead of being lost when the process ends.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dispatch } from '../../src/dispatch/dispatch.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

let dir: TempDir;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir.cleanup());

it('the later context of a SessionStart hook goes with the answer; its decision fields do not', async () => {
  const later = JSON.stringify({
    hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'late ctx' },
    systemMessage: 'late note',
  });
  const command = `echo '{"async":true,"asyncTimeout":15000}'; sleep 0.2; printf '%s\\n' '${later}'`;
  const settings = dir.json('settings.json', { hooks: { SessionStart: [{ hooks: [{ type: 'command', command }] }] } });
  const out = await dispatch(
    { agent: 'claude', settings: [settings], discover: false },
    JSON.stringify({ session_id: 's', cwd: dir.root, hook_event_name: 'SessionStart', source: 'startup' }),
  );
  expect(out.exitCode).toBe(0);
  const answer = JSON.parse(out.stdout) as { hookSpecificOutput?: { additionalContext?: string }; systemMessage?: string };
  expect(answer.hookSpecificOutput?.additionalContext).toBe('late ctx\nlate note');
  expect(answer.systemMessage).toBeUndefined();
});
