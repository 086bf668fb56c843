/**
 * The start of a host session, before anything else runs: the workspace checked, Setup (when
 * asked) and SessionStart. `continue:false` refuses the session and leaves nothing behind;
 * CLAUDE_ENV_FILE exports of Setup join the env SessionStart binds with.
 */
import { realpathSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Decision } from '../reduce/reduce.js';
import type { HookManager, SessionHandle } from '../session/manager.js';
import type { HostSessionOptions, TraceEntry } from './session-types.js';
import type { RuntimeState } from './session-state.js';

/** The workspace as a real directory path; a clear error when it cannot be used. */
export function workspaceDir(dir: string): string {
  let workspace: string;
  try {
    workspace = realpathSync.native(path.resolve(dir));
  } catch (e) {
    throw new Error(
      `startHostSession: workspace ${JSON.stringify(dir)} cannot be used: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  if (!statSync(workspace).isDirectory()) throw new Error(`startHostSession: workspace ${JSON.stringify(dir)} is not a directory`);
  return workspace;
}

export interface StartContext {
  options: HostSessionOptions;
  manager: HookManager;
  owned: boolean;
  sessionId: string;
  workspace: string;
  transcriptPath: string | undefined;
  trace: (entry: TraceEntry) => void;
}

export type Begun =
  | { ok: true; hooks: SessionHandle; start: Decision; setup?: Decision }
  | { ok: false; reason: string; decision: Decision };

/**
 * Setup (--init / --maintenance) before SessionStart: a short-lived binding of the same session
 * id runs it, then SessionStart binds the session for good with Setup's env exports.
 */
async function runSetup(c: StartContext, trigger: 'init' | 'maintenance'): Promise<Decision> {
  const { options, manager, sessionId, workspace, transcriptPath } = c;
  let setupDecision: Decision;
  try {
    const bound = await manager.bindSession({
      sessionId,
      projectDir: workspace,
      ...(options.env ? { env: options.env } : {}),
      model: options.model.name,
    });
    try {
      setupDecision = await bound.run(
        'Setup',
        { trigger, ...(transcriptPath ? { transcript_path: transcriptPath } : {}) },
        { permissionMode: options.mode ?? 'default' },
      );
    } finally {
      await manager.dispose(sessionId);
    }
  } catch (e) {
    if (c.owned) await manager.close();
    throw e;
  }
  c.trace({ kind: 'hooks', event: 'Setup', decision: setupDecision });
  return setupDecision;
}

export async function beginHooks(c: StartContext): Promise<Begun> {
  const { options, manager } = c;
  let setup: Decision | undefined;
  let bindEnv = options.env;
  if (options.setup !== undefined) {
    if (options.setup !== 'init' && options.setup !== 'maintenance')
      throw new Error(`startHostSession: setup must be "init" or "maintenance", got ${JSON.stringify(options.setup)}`);
    setup = await runSetup(c, options.setup);
    const added = setup.eventOutput.env;
    if (added && typeof added === 'object') bindEnv = { ...(options.env ?? {}), ...(added as Record<string, string>) };
  }
  const started = await manager.startSession({
    sessionId: c.sessionId,
    projectDir: c.workspace,
    ...(bindEnv ? { env: bindEnv } : {}),
    model: options.model.name,
    source: 'startup',
    input: c.transcriptPath ? { transcript_path: c.transcriptPath } : {},
    ctx: { permissionMode: options.mode ?? 'default' },
  });
  c.trace({ kind: 'hooks', event: 'SessionStart', decision: started.decision });
  if (!started.ok) {
    if (c.owned) await manager.close();
    return { ok: false, reason: started.reason, decision: started.decision };
  }
  return { ok: true, hooks: started.session, start: started.decision, ...(setup ? { setup } : {}) };
}

/** <workspace>/CLAUDE.md into context; InstructionsLoaded fires (unless loadInstructions is false). */
export async function loadInstructions(st: RuntimeState): Promise<void> {
  if (st.options.loadInstructions === false) return;
  const file = path.join(st.workspace, 'CLAUDE.md');
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = undefined;
  }
  if (text === undefined) return;
  st.messages.push({ role: 'system', content: `Project instructions (${file}):\n${text}` });
  await st.slots.instructionsLoaded.fire({
    filePath: file,
    memoryType: 'Project',
    loadReason: 'session_start',
    mode: st.permissions.mode,
    cwd: st.workspace,
  });
}
