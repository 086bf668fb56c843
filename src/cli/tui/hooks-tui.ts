/**
 * `agent-hooks hooks`: a terminal manager for a workspace's hooks, like the agents' `/hooks`
 * menu (docs/cli.md, "hooks"). Lists hooks by event with source and trust state; shows a hook's
 * command, the scripts it runs and what changed since trust; trusts (with the digest that was
 * shown, so a change in between is refused) and revokes; switches one hook off or on
 * (`"enabled": false`, toggle.ts); pauses or resumes a session; fires a test event. Built on @clack/prompts (select, confirm, text, note).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as p from '@clack/prompts';
import { EVENT_NAMES, type EventName } from '../../events/catalog.js';
import {
  describeChange,
  loadTrustedConfig,
  revokeWorkspace,
  trustWorkspace,
  TrustRefusedError,
  TrustStoreError,
  type HookTrustStatus,
  type TrustReport,
} from '../../trust/index.js';
import { defaultPauseFilePath, readPauseFile, setSessionPaused } from '../../session/pause-file.js';
import { forTerminal, oneLine } from '../../util/terminal-text.js';
import { setHookEnabled } from './toggle.js';

export interface HooksTuiFlags {
  cwd?: string;
}

async function assess(dir: string): Promise<TrustReport> {
  const { trust } = await loadTrustedConfig({ cwd: dir, projectDir: dir, discover: true }, { workspaceDir: dir });
  return trust;
}

function hookLabel(h: HookTrustStatus): string {
  const state = `${h.needsTrust ? h.state : 'no trust needed'}${h.enabled ? '' : ', disabled'}`;
  return oneLine(
    `${h.event}${h.matcher ? ` [${h.matcher}]` : ''}  ${h.type}: ${h.summary.length > 60 ? `${h.summary.slice(0, 59)}…` : h.summary}  (${h.source.kind}, ${state})`,
  );
}

function scriptPreview(file: string): string {
  try {
    const lines = readFileSync(file, 'utf8').split('\n');
    return `${forTerminal(lines.slice(0, 15).join('\n'))}${lines.length > 15 ? `\n… ${lines.length - 15} more lines` : ''}`;
  } catch (err) {
    return `(cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
}

function showHook(h: HookTrustStatus): void {
  const parts = [
    `command: ${oneLine(h.summary)}`,
    `source:  ${oneLine([h.source.kind, h.source.file, h.source.path].filter(Boolean).join(' '))}`,
    `trust:   ${h.needsTrust ? h.state : 'not needed (user, managed or named on the command line)'}`,
  ];
  if (h.changes.length > 0) parts.push('', 'changed since trust:', ...h.changes.map((c) => `  ${oneLine(describeChange(c))}`));
  for (const s of h.scripts) parts.push('', `script ${oneLine(s)}:`, scriptPreview(s));
  p.note(parts.join('\n'), oneLine(`${h.event} hook`));
}

async function fireEvent(dir: string, event: EventName): Promise<void> {
  const { runCommand, RunUsageError } = await import('../run.js');
  try {
    const code = await runCommand(event, { cwd: dir });
    p.log.info(`${event} fired: exit code ${code}`);
  } catch (err) {
    if (err instanceof RunUsageError) p.log.error(err.message);
    else throw err;
  }
}

async function pauseMenu(dir: string): Promise<void> {
  const file = defaultPauseFilePath();
  const paused = Object.keys(readPauseFile(file).data.sessions);
  const id = await p.text({
    message: `Session id to pause or resume (paused now: ${paused.length ? paused.map((s) => oneLine(s)).join(', ') : 'none'})`,
    validate: (v) => (v.trim() ? undefined : 'a session id'),
  });
  if (p.isCancel(id)) return;
  const pause = !paused.includes(id.trim());
  await setSessionPaused(id.trim(), pause, { file, projectDir: dir });
  p.log.success(`${pause ? 'paused' : 'resumed'} session ${oneLine(id.trim())} (${file})`);
}

function toggle(h: HookTrustStatus): void {
  const error = setHookEnabled(h.source, !h.enabled);
  if (error) p.log.error(error);
  // The file changed: a trusted workspace's hooks wait for trust again (the whole handler is in its digest).
  else {
    p.log.success(
      `${h.enabled ? 'disabled' : 'enabled'} ${oneLine(`${h.event} ${h.summary}`)}${h.needsTrust && h.state !== 'untrusted' ? ' (the workspace changed: trust it again)' : ''}`,
    );
    // Every file this menu edits is one Claude Code reads itself (toggle.ts), and it has no per-hook switch.
    if (h.enabled)
      p.log.warn('Claude Code reads this file itself and still runs this hook (it has no per-hook switch); agent-hooks leaves it out');
  }
}

/** The menu loop; returns the exit code. */
export async function hooksTui(flags: HooksTuiFlags): Promise<number> {
  const dir = resolve(flags.cwd ?? process.cwd());
  p.intro(`agent-hooks: hooks of ${oneLine(dir)}`);
  for (;;) {
    const report = await assess(dir);
    const gated = report.hooks.filter((h) => h.needsTrust);
    p.log.info(`hook trust: ${report.state} — ${oneLine(report.reason)}${report.digest ? `\ndigest: ${report.digest}` : ''}`);
    const ordered = [...report.hooks].sort((a, b) => EVENT_NAMES.indexOf(a.event as EventName) - EVENT_NAMES.indexOf(b.event as EventName));
    const options: { value: string; label: string; hint?: string }[] = ordered.map((h) => ({
      value: `hook:${report.hooks.indexOf(h)}`,
      label: hookLabel(h),
    }));
    if (gated.length > 0 && report.state !== 'trusted' && report.digest)
      options.push({ value: 'trust', label: `Trust these ${gated.length} hook(s)`, hint: report.digest.slice(0, 19) });
    if (report.workspaceTrusted) options.push({ value: 'revoke', label: 'Revoke trust of this workspace' });
    options.push(
      { value: 'fire', label: 'Fire a test event' },
      { value: 'pause', label: 'Pause or resume a session' },
      { value: 'quit', label: 'Quit' },
    );
    const choice = await p.select({
      message: report.hooks.length ? `${report.hooks.length} hook(s), by event` : 'no hooks found',
      options,
    });
    if (p.isCancel(choice) || choice === 'quit') break;
    try {
      if (choice.startsWith('hook:')) {
        const h = report.hooks[Number(choice.slice(5))]!;
        showHook(h);
        const next = await p.select({
          message: 'This hook',
          options: [
            { value: 'fire', label: `Fire ${h.event}` },
            { value: 'toggle', label: h.enabled ? 'Disable this hook ("enabled": false)' : 'Enable this hook' },
            { value: 'back', label: 'Back' },
          ],
        });
        if (next === 'fire') await fireEvent(dir, h.event as EventName);
        else if (next === 'toggle') toggle(h);
      } else if (choice === 'trust') {
        const lines = gated.map(
          (h) =>
            `  ${hookLabel(h)}${h.changes.length ? `\n    changed: ${h.changes.map((c) => oneLine(describeChange(c))).join('; ')}` : ''}`,
        );
        p.note(`${lines.join('\n')}\n\ndigest ${report.digest}`, 'These will run in every session of this workspace');
        const ok = await p.confirm({ message: `Trust exactly this (digest ${report.digest!.slice(0, 19)}…)?`, initialValue: false });
        if (ok === true) {
          // The digest that was shown: if the files changed meanwhile, trust is refused.
          const r = await trustWorkspace(await assess(dir), { expectedDigest: report.digest });
          p.log.success(`trusted ${gated.length} hook(s), digest ${r.digest ?? report.digest}`);
        }
      } else if (choice === 'revoke') {
        const ok = await p.confirm({ message: 'Revoke trust? Project hooks stop running until trusted again.', initialValue: false });
        if (ok === true) {
          await revokeWorkspace({ workspaceDir: dir, ...(report.trustedDigest ? { expectedDigest: report.trustedDigest } : {}) });
          p.log.success('revoked');
        }
      } else if (choice === 'fire') {
        const event = await p.select<string>({
          message: 'Event',
          options: EVENT_NAMES.map((e) => ({ value: e as string, label: e })),
          maxItems: 12,
        });
        if (!p.isCancel(event)) await fireEvent(dir, event as EventName);
      } else if (choice === 'pause') await pauseMenu(dir);
    } catch (err) {
      if (err instanceof TrustRefusedError || err instanceof TrustStoreError) p.log.error(err.message);
      else throw err;
    }
  }
  p.outro('bye');
  return 0;
}
