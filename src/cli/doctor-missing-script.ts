/**
 * What a hook run as `INTERPRETER missing-script` really does: each interpreter fails in its own
 * way (measured here: python3, sh/dash and perl exit 2, node 1, bash 127), and exit 2 is a block
 * in Claude Code's convention, so a missing Python guard blocks every call it matches. The exit
 * code is measured by running the interpreter on a path that does not exist, in an empty
 * temporary directory with only PATH set: nothing of the workspace is read or run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventFacts, type EventName } from '../events/facts.js';

const measured = new Map<string, number | null>();

/** The exit code of `program /tmp/…/missing`, or null when it did not end by itself in 5 s. */
function missingScriptExit(program: string, env: NodeJS.ProcessEnv): number | null {
  const known = measured.get(program);
  if (known !== undefined) return known;
  const dir = mkdtempSync(join(tmpdir(), 'agent-hooks-doctor-'));
  try {
    const r = spawnSync(program, [join(dir, 'missing-script')], {
      cwd: dir,
      env: { PATH: env.PATH ?? '' },
      stdio: 'ignore',
      timeout: 5000,
    });
    const code = r.error ? 127 : r.status;
    measured.set(program, code);
    return code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The finding for a script that does not exist; `program` is the interpreter on PATH it is given
 * to, undefined when the shell runs the script itself (then it is "not found": exit 127).
 */
export function missingScriptMessage(program: string | undefined, script: string, event: EventName, env: NodeJS.ProcessEnv): string {
  const head = `script ${script} does not exist`;
  if (program === undefined) return `${head}: the hook exits 127`;
  const code = missingScriptExit(program, env);
  const facts = eventFacts(event);
  if (code === 2 && facts.canBlock && facts.exit2 === 'block')
    return `${head}: ${program} exits 2 when it cannot open its script, and exit 2 blocks: every ${event} call this hook matches is blocked`;
  if (code === null)
    return `${head}: ${program} did not end by itself when given a missing script (checked for 5 s); the hook runs until its timeout`;
  if (code === 127) return `${head}: the hook exits 127 (${program} cannot open it)`;
  return `${head}: ${program} exits ${code} when it cannot open its script (a non-blocking error): the hook never does its job and the action proceeds`;
}
