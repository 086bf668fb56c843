/**
 * `agent-hooks init`: scaffold a hook in a project — the script, its entry in
 * `.claude/settings.json`, and a fixture file whose cases pass with `agent-hooks test`.
 *
 *   .claude/hooks/NAME.mjs | NAME.py | NAME.sh   the hook
 *   .claude/hooks/NAME.test.yaml                  its fixtures (inline hooks: a unit test of this hook alone)
 *   .claude/settings.json                         the entry that makes the agent run it
 *
 * What the hook does depends on the event (kept small, to be edited):
 *   guard   PreToolUse, PermissionRequest  deny Bash commands containing `rm -rf`
 *   stop    Stop, SubagentStop            ask the agent to check its work once (never loops)
 *   context events that read additionalContext   add a line of context
 *   observe everything else                read the payload, decide nothing
 *
 * Languages: `ts` is an ES module checked by TypeScript (`// @ts-check`) that uses
 * `agent-hooks/sdk`; it runs on Node 20 without a build step (Node 20 cannot run .ts files).
 * `python` uses the standard library only. `bash` is POSIX sh without jq: it matches the payload
 * as text and prints fixed JSON. Without a language, the first the machine can run: bash, then
 * python3, then ts where the project resolves `agent-hooks/sdk` (defaultLang). `ts` is refused
 * where the import does not resolve: the hook would fail at its first run, and fail open.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isExecutableFile } from '../util/file-kind.js';
import { delimiter, join, parse, relative, resolve } from 'node:path';
import { stringify } from 'yaml';
import { parseJson } from '../config/diagnostics.js';
import { asksPermission, eventFacts, isEventName, type EventName } from '../events/facts.js';
import { outputFields } from '../events/honoured.js';
import { sampleInput } from './sample.js';

export const LANGS = ['ts', 'python', 'bash'] as const;
export type Lang = (typeof LANGS)[number];

export interface InitOptions {
  name: string;
  /** Project directory (default: current directory). */
  dir?: string;
  lang?: Lang;
  event?: EventName;
  /** Overwrite the script and fixture file if they exist. */
  force?: boolean;
}

export interface InitResult {
  /** The language written (the machine's default when none was asked for). */
  lang: Lang;
  script: string;
  fixture: string;
  settings: string;
  /** Files written (settings.json only when its entry was added). */
  written: string[];
  /** Those of `written` that existed before (updated rather than created). */
  updated: string[];
  /** Advice for the user (e.g. install agent-hooks for the SDK import). */
  notes: string[];
}

export class InitError extends Error {}

type Mode = 'guard' | 'stop' | 'context' | 'observe';

export function modeFor(event: EventName): Mode {
  const spec = eventFacts(event);
  if (asksPermission(spec)) return 'guard';
  if (spec.continuationCap) return 'stop';
  if (outputFields(event).specific.has('additionalContext')) return 'context';
  return 'observe';
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const EXT: Record<Lang, string> = { ts: 'mjs', python: 'py', bash: 'sh' };
const RUNNER: Record<Lang, string> = { ts: 'node', python: 'python3', bash: 'sh' };

/** Whether an executable `name` is on PATH. */
export function onPath(name: string, pathValue = process.env.PATH ?? ''): boolean {
  return pathValue.split(delimiter).some((d) => d !== '' && isExecutableFile(join(d, name)));
}

/** Whether `agent-hooks/sdk`, the ts template's import, resolves from the project directory. */
export function sdkResolves(dir: string): boolean {
  try {
    createRequire(join(dir, 'package.json')).resolve('agent-hooks/sdk');
    return true;
  } catch {
    return false;
  }
}

/** The language a hook gets when none is asked for: one this machine and project can run. */
export function defaultLang(dir: string, pathValue = process.env.PATH ?? ''): Lang {
  if (onPath('bash', pathValue)) return 'bash';
  if (onPath('python3', pathValue)) return 'python';
  if (sdkResolves(dir)) return 'ts';
  // sh runs the bash template (POSIX sh) and is on every machine this CLI runs on.
  return 'bash';
}

export async function initHook(opts: InitOptions): Promise<InitResult> {
  const event = opts.event ?? 'PreToolUse';
  if (!NAME.test(opts.name))
    throw new InitError(`invalid hook name ${JSON.stringify(opts.name)}: use letters, digits, '.', '_' and '-' (it becomes a file name)`);
  if (opts.lang !== undefined && !(LANGS as readonly string[]).includes(opts.lang))
    throw new InitError(`unknown language ${JSON.stringify(opts.lang)} (expected ${LANGS.join(', ')})`);
  if (!isEventName(event)) throw new InitError(`unknown event ${JSON.stringify(event)}`);
  const spec = eventFacts(event);
  if (spec.hookTypes && !spec.hookTypes.includes('command')) throw new InitError(`${event} does not run command hooks`);

  const dir = resolve(opts.dir ?? '.');
  const lang = opts.lang ?? defaultLang(dir);
  if (lang === 'ts' && !sdkResolves(dir))
    throw new InitError(
      `--lang ts: the template imports agent-hooks/sdk, which does not resolve from ${dir}; install it there first (from a clone: \`npm link agent-hooks\` after \`npm link --ignore-scripts\` in the clone, or \`npm install /path/to/agent-hooks-0.1.0.tgz\` of its \`npm pack\`; once published: \`npm install --save-dev agent-hooks\`), or use --lang bash or --lang python; nothing was written`,
    );
  const hooksDir = join(dir, '.claude', 'hooks');
  const script = join(hooksDir, `${opts.name}.${EXT[lang]}`);
  const fixture = join(hooksDir, `${opts.name}.test.yaml`);
  const settings = join(dir, '.claude', 'settings.json');
  if (!opts.force) {
    for (const f of [script, fixture])
      if (existsSync(f)) throw new InitError(`${relative(dir, f)} already exists (use --force to overwrite)`);
  }

  const mode = modeFor(event);
  const handler = {
    type: 'command',
    command: RUNNER[lang],
    args: [`\${CLAUDE_PROJECT_DIR}/.claude/hooks/${opts.name}.${EXT[lang]}`],
  };
  const group: Record<string, unknown> = { ...(mode === 'guard' ? { matcher: 'Bash' } : {}), hooks: [handler] };

  // Read settings first: a file we cannot merge into must stop us before anything is written.
  const merged = await mergeSettings(settings, [[event, group]]);

  // Files that were there before (settings we merged into, or overwritten with --force): "updated", not "created".
  const existed = [script, fixture, settings].filter((f) => existsSync(f));
  await mkdir(hooksDir, { recursive: true });
  await writeFile(script, SCRIPTS[lang](opts.name, event, mode), { mode: 0o755 });
  await writeFile(fixture, fixtureText(event, mode, lang, group));
  const written = [script, fixture];
  if (merged !== undefined) {
    await writeFile(settings, merged);
    written.push(settings);
  }
  const notes = [
    'agent-hooks runs project hooks only once the workspace is trusted: review with `agent-hooks status`, then `agent-hooks trust`',
  ];
  return { lang, script, fixture, settings, written, updated: written.filter((f) => existed.includes(f)), notes };
}

/** The settings text with the entries added; undefined when each identical entry is already there. */
export async function mergeSettings(
  file: string,
  entries: ReadonlyArray<readonly [string, Record<string, unknown>]>,
): Promise<string | undefined> {
  let data: Record<string, unknown> = {};
  if (existsSync(file)) {
    const text = await readFile(file, 'utf8');
    if (text.trim() !== '') {
      const parsed = parseJson(text);
      if (!parsed.ok) throw new InitError(`${file}: ${parsed.message}; fix it first, nothing was written`);
      if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value))
        throw new InitError(`${file}: expected a JSON object; nothing was written`);
      data = parsed.value as Record<string, unknown>;
    }
  }
  data.hooks ??= {};
  const hooks = data.hooks as Record<string, unknown>;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))
    throw new InitError(`${file}: "hooks" is not an object; nothing was written`);
  let added = false;
  for (const [event, group] of entries) {
    hooks[event] ??= [];
    const groups = hooks[event] as unknown[];
    if (!Array.isArray(groups)) throw new InitError(`${file}: hooks.${event} is not an array; nothing was written`);
    if (groups.some((g) => JSON.stringify(g) === JSON.stringify(group))) continue;
    groups.push(group);
    added = true;
  }
  return added ? `${JSON.stringify(data, null, 2)}\n` : undefined;
}

// --- scripts --------------------------------------------------------------------------------

const header = (name: string, event: EventName, what: string) =>
  `${name}: a ${event} hook, created by \`agent-hooks init\`. ${what}\nTest it with: npx agent-hooks test .claude/hooks`;

const WHAT: Record<Mode, string> = {
  guard: 'It denies Bash commands that contain `rm -rf`.',
  stop: 'It asks the agent to check its work once before stopping.',
  context: 'It adds a line of context for the model.',
  observe: 'It reads the payload and decides nothing (a place for side effects).',
};

const reasonText = (name: string) => `${name}: refusing to run rm -rf`;
const stopText = (name: string) => `${name}: check your work (run the tests) before stopping.`;
const contextText = (name: string, event: EventName) => `${name}: context from the ${event} hook.`;

const comment = (prefix: string, text: string) =>
  text
    .split('\n')
    .map((l) => `${prefix}${l}`)
    .join('\n');

const SCRIPTS: Record<Lang, (name: string, event: EventName, mode: Mode) => string> = {
  ts(name, event, mode) {
    const doc = comment('// ', header(name, event, WHAT[mode]));
    const typed =
      '// Typed by agent-hooks/sdk: `input` is checked by TypeScript (// @ts-check) and at runtime,\n// and a misspelled output field is an error that names it.';
    const q = (s: string) => JSON.stringify(s);
    switch (mode) {
      case 'guard':
        return `// @ts-check\n${doc}\n${typed}\nimport { defineHook, deny } from 'agent-hooks/sdk';\n\ndefineHook(${q(event)}, (input) => {\n  const command = String(input.tool_input.command ?? '');\n  if (/\\brm\\s+-rf\\b/.test(command)) return deny(${q(reasonText(name))});\n  // Nothing returned: no decision; the agent's normal permission flow applies.\n  return undefined;\n});\n`;
      case 'stop':
        return `// @ts-check\n${doc}\n${typed}\nimport { defineHook, block } from 'agent-hooks/sdk';\n\ndefineHook(${q(event)}, (input) => {\n  // stop_hook_active: the agent is already continuing because of a stop hook; never loop.\n  if (input.stop_hook_active) return undefined;\n  return block(${q(stopText(name))});\n});\n`;
      case 'context':
        return `// @ts-check\n${doc}\n${typed}\nimport { defineHook, addContext } from 'agent-hooks/sdk';\n\ndefineHook(${q(event)}, (_input) => addContext(${q(contextText(name, event))}));\n`;
      case 'observe':
        return `// @ts-check\n${doc}\n${typed}\nimport { defineHook } from 'agent-hooks/sdk';\n\ndefineHook(${q(event)}, (input) => {\n  // Side effects go here (log, notify, ...); returning nothing decides nothing.\n  void input;\n  return undefined;\n});\n`;
    }
  },

  python(name, event, mode) {
    const doc = `"""${header(name, event, WHAT[mode])}\n\nStandard library only. Reads the JSON payload on stdin; prints JSON on stdout.\n"""`;
    const out = (obj: unknown) => `print(json.dumps(${toPython(obj)}))`;
    const head = `#!/usr/bin/env python3\n${doc}\nimport json\n${mode === 'guard' ? 'import re\n' : ''}import sys\n\npayload = json.load(sys.stdin)\n`;
    switch (mode) {
      case 'guard': {
        const decision =
          eventFacts(event).decision === 'permission-request'
            ? { hookSpecificOutput: { hookEventName: event, decision: { behavior: 'deny', message: reasonText(name) } } }
            : { hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reasonText(name) } };
        return `${head}command = str((payload.get("tool_input") or {}).get("command", ""))\n\nif re.search(r"\\brm\\s+-rf\\b", command):\n    ${out(decision)}\n# No output: no decision; the agent's normal permission flow applies.\n`;
      }
      case 'stop':
        return `${head}\n# stop_hook_active: the agent is already continuing because of a stop hook; never loop.\nif not payload.get("stop_hook_active"):\n    ${out({ decision: 'block', reason: stopText(name) })}\n`;
      case 'context':
        return `${head}\n${out({ hookSpecificOutput: { hookEventName: event, additionalContext: contextText(name, event) } })}\n`;
      case 'observe':
        return `${head}\n# Side effects go here (log, notify, ...) using payload; printing nothing decides nothing.\n`;
    }
  },

  bash(name, event, mode) {
    const doc = comment(
      '# ',
      `${header(name, event, WHAT[mode])}\nPOSIX sh, no jq: the payload is matched as text and the output is fixed JSON.`,
    );
    const json = (obj: unknown) => `printf '%s\\n' '${JSON.stringify(obj)}'`;
    const head = `#!/bin/sh\n${doc}\n`;
    switch (mode) {
      case 'guard': {
        const decision =
          eventFacts(event).decision === 'permission-request'
            ? { hookSpecificOutput: { hookEventName: event, decision: { behavior: 'deny', message: reasonText(name) } } }
            : { hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reasonText(name) } };
        return `${head}payload=$(cat)\ncase "$payload" in\n  *'rm -rf'*) ${json(decision)} ;;\nesac\n# No output: no decision; the agent's normal permission flow applies.\nexit 0\n`;
      }
      case 'stop':
        return `${head}payload=$(cat)\n# Whitespace removed, so "key": true and "key":true match alike.\ncompact=$(printf '%s' "$payload" | tr -d ' \\t\\n\\r')\n# stop_hook_active: the agent is already continuing because of a stop hook; never loop.\ncase "$compact" in\n  *'"stop_hook_active":true'*) exit 0 ;;\nesac\n${json({ decision: 'block', reason: stopText(name) })}\n`;
      case 'context':
        return `${head}cat >/dev/null\n${json({ hookSpecificOutput: { hookEventName: event, additionalContext: contextText(name, event) } })}\n`;
      case 'observe':
        return `${head}payload=$(cat)\n# Side effects go here (log, notify, ...) using "$payload"; printing nothing decides nothing.\nexit 0\n`;
    }
  },
};

/** A JSON value as a Python literal (json.dumps turns it back into the same JSON). */
function toPython(v: unknown): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string' || typeof v === 'number') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(toPython).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${JSON.stringify(k)}: ${toPython(x)}`)
    .join(', ')}}`;
}

// --- fixtures -------------------------------------------------------------------------------

function fixtureText(event: EventName, mode: Mode, lang: Lang, group: Record<string, unknown>): string {
  const sample = sampleInput(event);
  const bash = (command: string) => ({ ...sample, tool_name: 'Bash', tool_input: { command } });
  type Case = { name: string; event: EventName; payload: Record<string, unknown>; expect: Record<string, unknown> };
  let cases: Case[];
  switch (mode) {
    case 'guard':
      cases = [
        {
          name: 'denies rm -rf',
          event,
          payload: bash('rm -rf /tmp/build'),
          expect: { blocked: true, decision: 'deny', reason: 'refusing to run rm -rf', hooks: [{ outcome: 'success', decision: 'deny' }] },
        },
        {
          name: 'lets other commands through',
          event,
          payload: bash('ls -la'),
          expect: { blocked: false, decision: null, hooks: [{ outcome: 'success' }], warnings: [] },
        },
      ];
      break;
    case 'stop':
      cases = [
        {
          name: 'asks the agent to check its work',
          event,
          payload: { ...sample, stop_hook_active: false },
          expect: { blocked: true, decision: 'block', reason: 'check your work' },
        },
        {
          name: 'never blocks twice in a row',
          event,
          payload: { ...sample, stop_hook_active: true },
          expect: { blocked: false, decision: null, hooks: [{ outcome: 'success' }] },
        },
      ];
      break;
    case 'context':
      cases = [
        {
          name: 'adds context',
          event,
          payload: sample,
          expect: { blocked: false, additionalContext: `context from the ${event} hook`, hooks: [{ outcome: 'success' }], warnings: [] },
        },
      ];
      break;
    case 'observe':
      cases = [
        {
          name: 'runs and decides nothing',
          event,
          payload: sample,
          expect: { blocked: false, decision: null, hooks: [{ outcome: 'success' }], warnings: [] },
        },
      ];
      break;
  }
  const doc = {
    defaults: {
      // The project directory: ${CLAUDE_PROJECT_DIR} in the hook command.
      cwd: '../..',
      hooks: { [event]: [group] },
    },
    cases,
  };
  const head = [
    `# Fixtures for ${parse(String((group.hooks as Array<{ args: string[] }>)[0]!.args[0])).base} (${lang}), run by \`agent-hooks test\`.`,
    '# Reference: docs/authoring.md of agent-hooks. Run: npx agent-hooks test .claude/hooks',
    '# The hooks under test are inline (this hook alone). To test what the agent would run,',
    '# replace `hooks:` with `settings: ../settings.json`.',
    '# `expect` takes any subset of the `agent-hooks run --json` fields; text is a substring or /regex/.',
    '',
  ].join('\n');
  return head + stringify(doc, { lineWidth: 0 });
}
