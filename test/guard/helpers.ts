/**
 * Shared pieces of the guard attack tests (issue 39): the built CLI run as an agent runs it, each
 * agent's PreToolUse payload for a shell command, and "did the agent get a deny" in its own
 * convention. Everything runs in temp dirs; every child is killed by its pid when it overruns.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { DIALECT_NAMES, type DialectName } from '../../src/agents/types.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

export const BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));
export const DIALECTS = DIALECT_NAMES;

/** A guard as a project would write it: it reads the payload and refuses `rm -rf`. */
export const GUARD_SH = "#!/bin/sh\nif grep -q 'rm -rf'; then echo 'no rm -rf' >&2; exit 2; fi\nexit 0\n";
/** What an attacker turns the guard into: it lets everything through. */
export const OPEN_SH = '#!/bin/sh\nexit 0\n';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Killed by us at the time limit. */
  timedOut: boolean;
}

/** Runs the built CLI (bin.cjs, what an installed `agent-hooks` runs); kills it by pid at `timeoutMs`. */
export function runBin(args: string[], o: { input?: string; env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, o.timeoutMs ?? 30_000);
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - start, timedOut });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(o.input ?? '');
  });
}

/** A sandbox: temp root with its own HOME and trust store, and the environment an agent gives dispatch. */
export function sandbox(prefix = 'ah-guard-') {
  const dir: TempDir = tempDir(prefix);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir.path('home'),
    AGENT_HOOKS_TRUST_STORE: dir.path('store', 'trust.json'),
    XDG_CONFIG_HOME: dir.path('xdg'),
  };
  return { dir, env };
}
export type Sandbox = ReturnType<typeof sandbox>;

/** A project whose `.claude/settings.json` runs hooks/guard.sh on every Bash call. */
export function guardedProject(sb: Sandbox, name = 'project', command = 'sh "$CLAUDE_PROJECT_DIR"/hooks/guard.sh') {
  sb.dir.write(`${name}/hooks/guard.sh`, GUARD_SH, 0o755);
  sb.dir.json(`${name}/.claude/settings.json`, {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] },
  });
  return sb.dir.path(name);
}

/** A project whose PreToolUse guard on Bash is `command`, with `files`; not trusted yet. Its sandbox joins `keep`, for cleanup. */
export function bashGuardProject(keep: Sandbox[], files: Record<string, string>, command: string) {
  const sb = sandbox();
  keep.push(sb);
  for (const [rel, text] of Object.entries(files)) sb.dir.write(`p/${rel}`, text, 0o755);
  sb.dir.json('p/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } });
  return { sb, dir: sb.dir.path('p') };
}

/** `bashGuardProject`, set up further by `prepare`, trusted, and checked to answer both ways (`rm -rf` denied). */
export async function reviewedBashGuard(keep: Sandbox[], files: Record<string, string>, command: string, prepare?: (dir: string) => void) {
  const { sb, dir } = bashGuardProject(keep, files, command);
  prepare?.(dir);
  await trust(sb, dir);
  const call = async (cmd: string) => verdict(await dispatchShell('claude', dir, cmd, { env: sb.env }));
  expect(await call('ls')).toBe('proceed');
  expect(await call('rm -rf build')).toBe('deny');
  return { dir, call };
}

/** `agent-hooks trust --cwd DIR` as the person reviewing the hooks runs it. */
export async function trust(sb: Sandbox, project: string, extra: string[] = []) {
  const r = await runBin(['trust', '--cwd', project, ...extra], { env: sb.env });
  if (r.code !== 0) throw new Error(`trust failed: ${r.stderr}${r.stdout}`);
  return r;
}

/** Each agent's PreToolUse (or its equivalent) for a shell `command` run in `cwd`, and the extra dispatch arguments. */
export function shellCall(agent: DialectName, cwd: string, command: string): { payload: Record<string, unknown>; args: string[] } {
  const payloads: Record<DialectName, Record<string, unknown>> = {
    claude: {
      session_id: 's-1',
      transcript_path: '/tmp/t.jsonl',
      cwd,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
      tool_use_id: 'toolu_1',
    },
    codex: {
      session_id: 's-1',
      transcript_path: null,
      cwd,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
      tool_use_id: 'toolu_1',
      turn_id: 'turn-1',
      model: 'gpt-5-codex',
    },
    gemini: {
      session_id: 's-1',
      transcript_path: '/tmp/t.json',
      cwd,
      hook_event_name: 'BeforeTool',
      timestamp: '2026-01-01T00:00:00.000Z',
      tool_name: 'run_shell_command',
      tool_input: { command, description: 'run' },
    },
    qwen: {
      session_id: 's-1',
      transcript_path: '/tmp/t.jsonl',
      cwd,
      hook_event_name: 'PreToolUse',
      timestamp: '2026-01-01T00:00:00.000Z',
      permission_mode: 'auto_edit',
      tool_name: 'run_shell_command',
      tool_input: { command },
      tool_use_id: 'toolu_1',
      tool_call_id: 'call_1',
    },
    kimi: {
      hook_event_name: 'PreToolUse',
      session_id: 'session_abc',
      cwd,
      tool_name: 'Bash',
      tool_input: { command },
      tool_call_id: 'call_1',
    },
    cursor: {
      conversation_id: 'conv-1',
      generation_id: 'gen-1',
      model: 'claude-4.5-sonnet',
      hook_event_name: 'beforeShellExecution',
      cursor_version: '2.0.77',
      workspace_roots: [cwd],
      user_email: null,
      command,
      cwd,
    },
    copilot: {
      sessionId: 's-1',
      timestamp: 1767225600000,
      cwd,
      toolName: 'bash',
      toolArgs: JSON.stringify({ command, description: 'run' }),
    },
    droid: {
      session_id: 's-1',
      transcript_path: '/tmp/s-1.jsonl',
      cwd,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Execute',
      tool_input: { command },
      tool_use_id: 'toolu_1',
    },
    // What our OpenCode/Kilo plugin and Pi extension send (src/plugins/).
    opencode: {
      hook_event_name: 'tool.execute.before',
      session_id: 'ses_1',
      cwd,
      tool_name: 'bash',
      tool_input: { command },
      tool_use_id: 'call_1',
    },
    kilo: {
      hook_event_name: 'tool.execute.before',
      session_id: 'ses_1',
      cwd,
      tool_name: 'bash',
      tool_input: { command },
      tool_use_id: 'call_1',
    },
    pi: {
      hook_event_name: 'tool_call',
      session_id: 's-1',
      cwd,
      has_ui: false,
      tool_name: 'bash',
      tool_input: { command },
      tool_use_id: 'call_1',
    },
    cline: {
      clineVersion: '',
      timestamp: '2026-01-01T00:00:00.000Z',
      taskId: 'conv_1',
      workspaceRoots: [cwd],
      hookName: 'tool_call',
      tool_call: { id: 'call_1', name: 'run_commands', input: { commands: [command] } },
      preToolUse: { toolName: 'run_commands', parameters: { commands: JSON.stringify([command]) } },
    },
    auggie: {
      hook_event_name: 'PreToolUse',
      conversation_id: 'conv-1',
      workspace_roots: [cwd],
      tool_name: 'launch-process',
      tool_input: { command, wait: true },
      tool_output: '[undefined]',
      tool_error: null,
      is_mcp_tool: false,
    },
    letta: {
      event_type: 'PreToolUse',
      working_directory: cwd,
      tool_name: 'Bash',
      tool_input: { command, description: 'run' },
      tool_call_id: 'call_1',
      agent_id: 'agent-1',
    },
  };
  return { payload: payloads[agent], args: agent === 'copilot' ? ['--event', 'preToolUse'] : [] };
}

/** `agent-hooks dispatch --agent A` with A's payload for `command`, as A runs its hook. */
export function dispatchShell(
  agent: DialectName,
  cwd: string,
  command: string,
  o: { env: NodeJS.ProcessEnv; args?: string[]; procCwd?: string; timeoutMs?: number; edit?: (p: Record<string, unknown>) => void },
) {
  const { payload, args } = shellCall(agent, cwd, command);
  o.edit?.(payload);
  return runBin(['dispatch', '--agent', agent, ...args, ...(o.args ?? [])], {
    input: JSON.stringify(payload),
    env: o.env,
    cwd: o.procCwd,
    timeoutMs: o.timeoutMs,
  });
}

/**
 * What the agent does with the answer: 'deny' (or block), 'ask', or 'proceed'. Exit 2 blocks in
 * every agent's convention but Cline's; exit 0 with a deny/ask (Cline: cancel) in the agent's JSON shape; anything else
 * (exit 0 with nothing, exit 1 = a non-blocking error) lets the call proceed.
 */
export function verdict(r: Run): 'deny' | 'ask' | 'proceed' {
  if (r.code === 2) return 'deny';
  if (r.code !== 0 || r.stdout.trim() === '') return 'proceed';
  let out: Record<string, unknown>;
  try {
    out = JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    return 'proceed';
  }
  // The plugin agents' answer (src/agents/shared/plugin-wire.ts).
  if (typeof out.block === 'string') return 'deny';
  if (typeof out.ask === 'string') return 'ask';
  const hso = (out.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const values = [hso.permissionDecision, out.permissionDecision, out.decision, out.permission];
  // Cline's only stop is `cancel` (it never reads the exit code).
  if (values.some((v) => v === 'deny' || v === 'block') || out.cancel === true) return 'deny';
  if (values.some((v) => v === 'ask')) return 'ask';
  return 'proceed';
}

/** True when `pid` is a live process (signal 0 probes without touching it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie has exited: only its parent has not collected its status yet (an orphan's parent is
  // init, which in some containers reaps seconds later). kill(pid, 0) still succeeds on it.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '');
  } catch {
    return process.platform !== 'linux';
  }
}

/** Waits (up to 15 s) for a hook to create `file`, the sign it reached the point a race test needs. */
export async function waitForFile(file: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (!existsSync(file)) throw new Error(`the hook never created ${file}`);
}
