/**
 * The hook command `agent-hooks install` writes into an agent's config, and how a dispatch line is
 * recognised wherever hooks are read: a dispatch line is the agent's door to the engine, never a
 * hook for the engine to run (it would run every hook a second time) or to trust.
 */

/** The variable every installed line sets first: what marks a line as written by `install`. */
export const INSTALLED_MARK = 'AGENT_HOOKS_CLI=';

const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface DispatchLine {
  /** Absolute path of node, and of the CLI's entry (dist/cli/bin.cjs). */
  node: string;
  cli: string;
  agent: string;
  /** Absolute settings files passed through (--settings). */
  settings: readonly string[];
  /** The native event, for agents whose payload does not name it (--event). */
  event?: string;
  /**
   * What the line does when node or the CLI is gone (a missing binary is exit 127, which every
   * agent reads as "proceed"): `exit2` blocks with the reason; `cancel-json` prints Cline's
   * cancel; `note` (an event that does not fail closed) is a non-blocking exit 1 with the reason.
   */
  missing: 'exit2' | 'cancel-json' | 'note';
}

/** `AGENT_HOOKS_CLI=…; AGENT_HOOKS_NODE=…; [ both there ] || { block }; exec node cli dispatch --agent D …` (POSIX sh). */
export function dispatchLine(o: DispatchLine): string {
  const args = ['--agent', o.agent, ...(o.event ? ['--event', o.event] : []), ...o.settings.flatMap((s) => ['--settings', s])];
  const reason = `agent-hooks: cannot run $AGENT_HOOKS_CLI with $AGENT_HOOKS_NODE (moved or removed): this call is blocked until agent-hooks is reinstalled or \\\`agent-hooks uninstall --agent ${o.agent}\\\` is run`;
  const fail =
    o.missing === 'cancel-json'
      ? `printf '{"cancel":true,"errorMessage":"%s"}\\n' "${reason}"; exit 0`
      : `echo "${reason}" >&2; exit ${o.missing === 'exit2' ? 2 : 1}`;
  return `${INSTALLED_MARK}${shq(o.cli)}; AGENT_HOOKS_NODE=${shq(o.node)}; [ -f "$AGENT_HOOKS_CLI" ] && [ -x "$AGENT_HOOKS_NODE" ] || { ${fail}; }; exec "$AGENT_HOOKS_NODE" "$AGENT_HOOKS_CLI" dispatch ${args.map(shq).join(' ')}`;
}

// `agent-hooks dispatch`, `…/bin.cjs dispatch`, `…/cli/main.js dispatch` (quoted or not), or an installed line.
const DISPATCH_CALL = /(?:^|[\s;&|(/\\'"])(?:agent-hooks|bin\.cjs|cli[/\\]main\.js)['"]?\s+['"]?dispatch(?:['"]|\s|$)/;

/** Whether a hook command is a call of `agent-hooks dispatch` (installed or written by hand). */
export function isDispatchCommand(command: string): boolean {
  return command.includes(INSTALLED_MARK) || DISPATCH_CALL.test(command);
}
