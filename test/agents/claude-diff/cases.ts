/**
 * Hook configs written the way people write them for Claude Code (bash with bashisms, python
 * reading stdin, node, jq pipelines, plugins with ${CLAUDE_PLUGIN_ROOT}, multi-hook configs,
 * several plugins at once), each fired with several model scripts. The suite runs every
 * case × payload in the real Claude Code twice: with the config as Claude Code's own settings
 * ("native") and with `agent-hooks dispatch --agent claude` reading the same config ("engine").
 *
 * Markers: every reason, context and message a hook emits carries a token `M_<WORD>`; what the
 * model saw is compared as the set of tokens in the model requests. Tool commands append their
 * input to `ran.log`, so what ran (and with which input) is a file's content.
 */
import type { ToolCall } from '../harness/run.js';
import { EXAMPLE_COM_URLS, HIDDEN_RM_COMMANDS } from './calls.js';

export interface PluginSpec {
  name: string;
  /** Files under the plugin root (hooks/hooks.json included). */
  files: Record<string, string>;
}

export interface DiffPayload {
  id: string;
  calls: ToolCall[];
  prompt?: string;
}

export interface DiffCase {
  id: string;
  /** Claude settings `hooks` object; `$HOOKS` in a command is the case's scripts folder. */
  hooks?: Record<string, unknown[]>;
  /** Scripts written into the case's scripts folder (executable). */
  scripts?: Record<string, string>;
  plugins?: PluginSpec[];
  payloads: DiffPayload[];
  /** Programs the case needs on PATH. */
  needs?: string[];
  /**
   * A documented deliberate difference (docs/configuration.md "Compatibility with Claude Code"): the engine
   * run must show `engine` where Claude Code shows something else.
   */
  deliberate?: { why: string; payloads: string[] };
  /**
   * The engine's `if` reads more spellings as the rule's (docs/configuration.md "Compatibility with Claude
   * Code"): its hook runs must include every one of Claude Code's, and the rest must agree.
   */
  wider?: string;
}

const bash = (command: string): ToolCall => ({ name: 'Bash', input: { command, description: 'run it' } });
/** The model's Bash call: records `word` in ran.log when it runs, then runs `rest`. */
const ran = (word: string, rest?: string) => bash(`echo ${word} >> ran.log${rest ? `; ${rest}` : ''}`);
const write = (file: string, content: string): ToolCall => ({ name: 'Write', input: { file_path: file, content } });

const json = (obj: unknown) => `printf '%s' '${JSON.stringify(obj).replace(/'/g, `'\\''`)}'`;
const preOut = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
const denyJson = (reason: string) => json(preOut({ permissionDecision: 'deny', permissionDecisionReason: reason }));
const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });

/**
 * One PreToolUse group per `if` rule, each logging `<rule>|<what jq's expression reads>` to
 * hook-runs.log when it runs; an empty rule is a group without `if` (a control).
 */
const ifLoggers = (matcher: string, rules: string[], what: string) =>
  rules.map((rule) => ({
    matcher,
    hooks: [cmd(`jq -r --arg r '${rule || 'no if'}' '$r + "|" + ${what}' >> hook-runs.log`, rule ? { if: rule } : {})],
  }));

/** A Bash group whose hook, run under `rule`, logs the command (newlines as `~`) to hook-runs.log. */
const commandLogger = (rule: string) => ({
  matcher: 'Bash',
  hooks: [cmd(`jq -r '.tool_input.command' | tr '\\n' '~' >> hook-runs.log; echo >> hook-runs.log`, { if: rule })],
});

/** Payload sets reused across cases. */
const BASH_PAIR: DiffPayload[] = [
  { id: 'rm', calls: [ran('M_RM', 'rm -rf build')] },
  { id: 'ls', calls: [ran('M_LS', 'ls')] },
];
const GIT_PAIR: DiffPayload[] = [
  { id: 'push', calls: [ran('M_PUSH', 'git push --force origin main')] },
  { id: 'status', calls: [ran('M_STATUS', 'git status')] },
];

export const CASES: DiffCase[] = [
  // ---- bash, inline, bashisms ------------------------------------------------------------
  {
    id: 'bash-exit2-rm',
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [cmd(`cmd=$(cat); case "$cmd" in *'rm -rf'*) echo 'M_NORM blocked rm' >&2; exit 2;; esac; exit 0`)] },
      ],
    },
    payloads: BASH_PAIR,
  },
  {
    id: 'bash-shell-bashisms',
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [cmd(`input=$(cat); if [[ "$input" =~ rm\\ -rf ]]; then echo "M_BASHISM no" >&2; exit 2; fi`, { shell: 'bash' })],
        },
      ],
    },
    payloads: BASH_PAIR,
    deliberate: {
      payloads: ['rm'],
      why: 'Claude Code 2.1.328 runs a shell: "bash" hook with /bin/sh, so the [[ ]] guard fails and rm runs; agent-hooks runs bash as asked and the guard denies',
    },
  },
  {
    id: 'bash-script-file',
    scripts: {
      'guard.sh': `#!/usr/bin/env bash\nset -euo pipefail\npayload="$(cat)"\nif [[ $payload == *"git push --force"* ]]; then\n  echo "M_FORCE force-push is not allowed" >&2\n  exit 2\nfi\nexit 0\n`,
    },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('"$HOOKS"/guard.sh')] }] },
    payloads: GIT_PAIR,
  },
  {
    id: 'bash-json-deny',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`grep -q 'rm -rf' && ${denyJson('M_JSONDENY destructive')} || true`)] }] },
    payloads: BASH_PAIR,
  },
  {
    id: 'bash-ask-then-deny',
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            cmd(json(preOut({ permissionDecision: 'ask', permissionDecisionReason: 'M_ASK1 please confirm' }))),
            cmd(`grep -q 'rm -rf' && ${denyJson('M_DENY2 no')} || true`),
          ],
        },
      ],
    },
    payloads: BASH_PAIR,
  },
  {
    id: 'bash-deny-then-ask',
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [cmd(`grep -q 'rm -rf' && ${denyJson('M_DENY1 no')} || true`)] },
        { matcher: '*', hooks: [cmd(json(preOut({ permissionDecision: 'ask', permissionDecisionReason: 'M_ASK2 confirm' })))] },
      ],
    },
    payloads: BASH_PAIR,
  },
  {
    id: 'bash-allow-json',
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [cmd(json(preOut({ permissionDecision: 'allow', permissionDecisionReason: 'M_ALLOWED fine' })))] },
      ],
    },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'bash-rewrite',
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            cmd(
              json(
                preOut({ permissionDecision: 'allow', updatedInput: { command: 'echo M_REWRITTEN >> ran.log', description: 'rewritten' } }),
              ),
            ),
          ],
        },
      ],
    },
    payloads: [{ id: 'any', calls: [ran('M_ORIGINAL')] }],
  },
  {
    id: 'bash-context-pre',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(json(preOut({ additionalContext: 'M_PRECTX remember the style guide' })))] }] },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'bash-context-post',
    hooks: {
      PostToolUse: [
        {
          matcher: 'Bash',
          hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'M_POSTCTX output checked' } }))],
        },
      ],
    },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'bash-post-block',
    hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [cmd(json({ decision: 'block', reason: 'M_POSTBLOCK lint failed' }))] }] },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'bash-post-exit2',
    hooks: { PostToolUse: [{ hooks: [cmd(`echo 'M_POSTEXIT2 tests failed' >&2; exit 2`)] }] },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'bash-exit1-nonblocking',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`echo 'M_EXIT1 oops' >&2; exit 1`)] }] },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'bash-plain-stdout-pre',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`echo 'M_PLAIN just a log line'`)] }] },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'dedup-two-groups',
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [cmd('echo hook >> hook-runs.log')] },
        { matcher: '*', hooks: [cmd('echo hook >> hook-runs.log')] },
        { matcher: '*', hooks: [cmd('echo hook  >> hook-runs.log')] },
      ],
    },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'matcher-regex-mcp-none',
    hooks: { PreToolUse: [{ matcher: '^(Edit|Write)$', hooks: [cmd(`echo 'M_NOTBASH' >&2; exit 2`)] }] },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'matcher-list-write',
    hooks: {
      PreToolUse: [
        { matcher: 'Edit|Write|MultiEdit', hooks: [cmd(`grep -q '\\.env"' && { echo 'M_ENVFILE no secrets' >&2; exit 2; } || exit 0`)] },
      ],
    },
    payloads: [
      { id: 'env', calls: [write('.env', 'KEY=1\n')] },
      { id: 'readme', calls: [write('README.txt', 'hello\n')] },
    ],
  },
  {
    id: 'if-git-push',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`echo 'M_IFPUSH no pushing' >&2; exit 2`, { if: 'Bash(git push:*)' })] }] },
    payloads: GIT_PAIR,
  },
  {
    id: 'unknown-keys',
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          description: 'hand-written note',
          hooks: [cmd(`grep -q 'rm -rf' && { echo 'M_UNKNOWNKEYS' >&2; exit 2; } || true`, { description: 'x', rewakeMessage: 'y' })],
        },
      ],
    },
    payloads: BASH_PAIR,
  },
  // ---- python ---------------------------------------------------------------------------
  {
    id: 'python-guard',
    needs: ['python3'],
    scripts: {
      'guard.py': `#!/usr/bin/env python3\nimport json, sys\ndata = json.load(sys.stdin)\ncmd = data.get("tool_input", {}).get("command", "")\nif "rm -rf" in cmd:\n    print("M_PYDENY refusing rm -rf", file=sys.stderr)\n    sys.exit(2)\nsys.exit(0)\n`,
    },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('python3 "$HOOKS/guard.py"')] }] },
    payloads: BASH_PAIR,
  },
  {
    id: 'python-json-ask-deny',
    needs: ['python3'],
    scripts: {
      'policy.py': `import json, sys\nd = json.load(sys.stdin)\nc = d["tool_input"].get("command", "")\nout = {"hookSpecificOutput": {"hookEventName": "PreToolUse"}}\nif "push" in c:\n    out["hookSpecificOutput"].update(permissionDecision="deny", permissionDecisionReason="M_PYPUSH use a PR")\nelse:\n    out["hookSpecificOutput"].update(additionalContext="M_PYCTX checked " + d["hook_event_name"])\nprint(json.dumps(out))\n`,
    },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('python3 "$HOOKS/policy.py"')] }] },
    payloads: GIT_PAIR,
  },
  {
    id: 'python-rewrite',
    needs: ['python3'],
    scripts: {
      'rewrite.py': `import json, sys\nd = json.load(sys.stdin)\nti = dict(d["tool_input"])\nti["command"] = ti["command"].replace("M_DRY", "M_SAFE")\nprint(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": ti}}))\n`,
    },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('python3 "$HOOKS/rewrite.py"')] }] },
    payloads: [{ id: 'dry', calls: [ran('M_DRY')] }],
  },
  {
    id: 'python-post-context',
    needs: ['python3'],
    scripts: {
      'post.py': `import json, sys\nd = json.load(sys.stdin)\nprint(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "M_PYPOST saw " + d["tool_name"]}}))\n`,
    },
    hooks: { PostToolUse: [{ matcher: '*', hooks: [cmd('python3 "$HOOKS/post.py"')] }] },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  // ---- node -----------------------------------------------------------------------------
  {
    id: 'node-guard',
    scripts: {
      'guard.mjs': `let raw = '';\nfor await (const c of process.stdin) raw += c;\nconst { tool_input } = JSON.parse(raw);\nif (/rm\\s+-rf/.test(tool_input.command ?? '')) {\n  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'M_NODEDENY no rm -rf' } }));\n}\n`,
    },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('node "$HOOKS/guard.mjs"')] }] },
    payloads: BASH_PAIR,
  },
  {
    id: 'node-system-message',
    scripts: {
      'warn.mjs': `process.stdin.resume();process.stdin.on('end',()=>console.log(JSON.stringify({ systemMessage: 'M_SYSMSG careful', hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'M_NODECTX ok' } })));\n`,
    },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('node "$HOOKS/warn.mjs"')] }] },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'node-exec-form',
    scripts: {
      'argv.mjs': `let raw='';for await (const c of process.stdin) raw+=c;const i=JSON.parse(raw);if(i.tool_input.command.includes(process.argv[2])){process.stderr.write('M_EXECFORM '+process.argv[2]);process.exit(2)}\n`,
    },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('node "$HOOKS/argv.mjs" "rm -rf"')] }] },
    payloads: BASH_PAIR,
  },
  // ---- jq pipelines ---------------------------------------------------------------------
  {
    id: 'jq-exit2',
    needs: ['jq'],
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [cmd(`jq -r '.tool_input.command' | grep -q 'rm -rf' && { echo 'M_JQ blocked' >&2; exit 2; } || exit 0`)],
        },
      ],
    },
    payloads: BASH_PAIR,
  },
  {
    id: 'jq-json-deny',
    needs: ['jq'],
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            cmd(
              `jq 'if (.tool_input.command | test("git push")) then {hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"deny",permissionDecisionReason:"M_JQPUSH no push"}} else {} end'`,
            ),
          ],
        },
      ],
    },
    payloads: GIT_PAIR,
  },
  {
    id: 'jq-rewrite',
    needs: ['jq'],
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            cmd(
              `jq -c '{hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow",updatedInput:(.tool_input | .command |= sub("M_A"; "M_B"))}}'`,
            ),
          ],
        },
      ],
    },
    payloads: [{ id: 'a', calls: [ran('M_A')] }],
  },
  {
    id: 'jq-log-only',
    needs: ['jq'],
    hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [cmd(`jq -r '.tool_name' >> hook-runs.log`)] }] },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  // ---- prompt / session / stop ----------------------------------------------------------
  {
    id: 'prompt-context',
    hooks: { UserPromptSubmit: [{ hooks: [cmd(`echo 'M_PROMPTCTX the date is fixed'`)] }] },
    payloads: [{ id: 'none', calls: [] }],
  },
  {
    id: 'prompt-block',
    hooks: { UserPromptSubmit: [{ hooks: [cmd(json({ decision: 'block', reason: 'M_PROMPTBLOCK no' }))] }] },
    payloads: [{ id: 'none', calls: [] }],
  },
  {
    id: 'session-start-context',
    hooks: {
      SessionStart: [
        {
          matcher: 'startup',
          hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'M_SESSIONCTX branch main' } }))],
        },
      ],
    },
    payloads: [{ id: 'none', calls: [] }],
  },
  {
    id: 'stop-keep-going-once',
    hooks: {
      Stop: [
        { hooks: [cmd(`grep -q '"stop_hook_active":true' && exit 0; echo '{"decision":"block","reason":"M_STOPMORE run the tests"}'`)] },
      ],
    },
    payloads: [{ id: 'none', calls: [] }],
  },
  {
    id: 'stop-jq-once',
    needs: ['jq'],
    hooks: {
      Stop: [{ hooks: [cmd(`if [ "$(jq -r '.stop_hook_active')" = true ]; then exit 0; fi; echo 'M_STOPJQ not yet' >&2; exit 2`)] }],
    },
    payloads: [{ id: 'none', calls: [] }],
  },
  // ---- multi-hook configs ----------------------------------------------------------------
  {
    id: 'multi-pre-post-stop',
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`grep -q 'rm -rf' && { echo 'M_MULTIPRE' >&2; exit 2; } || true`)] }],
      PostToolUse: [
        { matcher: 'Bash', hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'M_MULTIPOST' } }))] },
      ],
      UserPromptSubmit: [{ hooks: [cmd(`echo M_MULTIPROMPT`)] }],
    },
    payloads: BASH_PAIR,
  },
  {
    id: 'multi-context-two-hooks',
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [cmd(json(preOut({ additionalContext: 'M_CTXONE' }))), cmd(json(preOut({ additionalContext: 'M_CTXTWO' })))],
        },
      ],
    },
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'multi-two-tools',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`grep -q 'M_SECOND' && { echo 'M_TWOTOOLS' >&2; exit 2; } || true`)] }] },
    payloads: [{ id: 'two', calls: [ran('M_FIRST'), ran('M_SECOND')] }],
  },
  // ---- plugins ---------------------------------------------------------------------------
  {
    id: 'plugin-root-script',
    plugins: [
      {
        name: 'guard-plugin',
        files: {
          '.claude-plugin/plugin.json': JSON.stringify({ name: 'guard-plugin', version: '1.0.0' }),
          'hooks/hooks.json': JSON.stringify({
            description: 'blocks rm',
            hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('bash "${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh"')] }] },
          }),
          'scripts/guard.sh': `#!/usr/bin/env bash\nif grep -q 'rm -rf'; then echo "M_PLUGIN from $(basename "$CLAUDE_PLUGIN_ROOT")" >&2; exit 2; fi\n`,
        },
      },
    ],
    payloads: BASH_PAIR,
  },
  {
    id: 'plugin-security-guidance-shape',
    plugins: [
      {
        name: 'security-guidance',
        files: {
          '.claude-plugin/plugin.json': JSON.stringify({ name: 'security-guidance', version: '1.0.0', description: 'Security reminders' }),
          'hooks/hooks.json': JSON.stringify({
            description: 'Security reminder hook',
            hooks: {
              PreToolUse: [
                {
                  matcher: 'Edit|Write|MultiEdit',
                  hooks: [
                    cmd('node "${CLAUDE_PLUGIN_ROOT}/hooks/remind.mjs"', { rewakeMessage: 'Security reminder', rewakeSummary: 'shown' }),
                  ],
                },
              ],
            },
          }),
          'hooks/remind.mjs': `let raw='';for await (const c of process.stdin) raw+=c;const i=JSON.parse(raw);if(String(i.tool_input.content).includes('eval(')){process.stderr.write('M_EVAL avoid eval');process.exit(2)}\n`,
        },
      },
    ],
    payloads: [
      { id: 'eval', calls: [write('a.js', 'eval(x)\n')] },
      { id: 'clean', calls: [write('b.js', 'x()\n')] },
    ],
  },
  {
    id: 'plugin-manifest-hooks-path',
    plugins: [
      {
        name: 'pathy',
        files: {
          '.claude-plugin/plugin.json': JSON.stringify({ name: 'pathy', version: '1.0.0', hooks: './hooks/hooks.json' }),
          'hooks/hooks.json': JSON.stringify({
            hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`grep -q 'rm -rf' && { echo 'M_PATHY' >&2; exit 2; } || true`)] }] },
          }),
        },
      },
    ],
    payloads: BASH_PAIR,
  },
  {
    id: 'two-plugins-same-script',
    plugins: ['alpha', 'beta'].map((name) => ({
      name,
      files: {
        '.claude-plugin/plugin.json': JSON.stringify({ name, version: '1.0.0' }),
        'hooks/hooks.json': JSON.stringify({
          hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [cmd('"${CLAUDE_PLUGIN_ROOT}/hook.sh"')] }] },
        }),
        'hook.sh': `#!/bin/sh\ncat >/dev/null\necho "${name}" >> hook-runs.log\n`,
      },
    })),
    payloads: [{ id: 'ls', calls: [ran('M_LS')] }],
  },
  {
    id: 'plugin-and-settings',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(json(preOut({ additionalContext: 'M_FROMSETTINGS' })))] }] },
    plugins: [
      {
        name: 'denier',
        files: {
          '.claude-plugin/plugin.json': JSON.stringify({ name: 'denier', version: '1.0.0' }),
          'hooks/hooks.json': JSON.stringify({
            hooks: {
              PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`grep -q 'rm -rf' && ${denyJson('M_DENIER plugin says no')} || true`)] }],
            },
          }),
        },
      },
    ],
    payloads: BASH_PAIR,
  },
  // ---- `if` conditions spelt many ways -------------------------------------------------------
  // Each hook logs the calls it ran for; the engine may run a guard for more spellings, never fewer.
  {
    id: 'if-bash-spellings',
    wider:
      'a guard also runs past wrappers and runners (timeout, nice, env, exec, command, find -exec), for a path (/bin/rm) and inside bash -c and eval; Claude Code 2.1.328 looks only through xargs',
    hooks: {
      PreToolUse: [commandLogger('Bash(rm *)')],
    },
    payloads: [
      {
        id: 'many',
        calls: [
          bash('rm -f nofile1'),
          bash('ls && rm -f nofile2'),
          bash('ls; rm -f nofile3'),
          bash('echo a | rm -f nofile4'),
          bash('echo $(rm -f nofile5)'),
          bash('FOO=1 rm -f nofile6'),
          bash('timeout 5 rm -f nofile7'),
          bash('nice rm -f nofile8'),
          bash('xargs rm -f < /dev/null'),
          bash("bash -c 'rm -f nofile10'"),
          bash('sh -c "rm -f nofile11"'),
          bash('( rm -f nofile12 )'),
          bash('{ rm -f nofile13; }'),
          bash('if true; then rm -f nofile14; fi'),
          bash('for f in nofile15; do rm -f $f; done'),
          bash('/bin/rm -f nofile16'),
          bash('\\rm -f nofile17'),
          bash("'rm' -f nofile18"),
          bash('command rm -f nofile19'),
          bash('env rm -f nofile20'),
          bash('exec rm -f nofile21'),
          bash('eval rm -f nofile22'),
          bash('rm'),
          bash('rmdir nodir24 || true'),
          bash('echo rm -f nofile25'),
          bash('find . -name nofile26 -exec rm -f {} \\;'),
          bash('ls\nrm -f nofile27'),
          bash('ls & rm -f nofile28'),
          bash('! rm -f nofile29'),
          bash('time rm -f nofile30'),
          bash('nohup rm -f nofile31'),
          bash('stdbuf -o0 rm -f nofile32'),
          bash('C=rm; $C -f nofile33'),
          bash('rm -- nofile34'),
          bash('  rm -f nofile35'),
          bash('rm\t-f nofile36'),
          bash('RM -f nofile37 || true'),
          bash('cat <(rm -f nofile38)'),
          bash('echo `rm -f nofile39`'),
          bash('x=$(rm -f nofile40); echo $x'),
          bash('true || rm -f nofile41'),
          bash('echo hi > >(rm -f nofile42)'),
          bash('nofile44=1; rm -f "$nofile44"'),
        ],
      },
    ],
  },
  {
    id: 'if-bash-hidden',
    wider: 'a guard also runs for a command whose words are computed ($x, $(…)) and for a shell fed a script on stdin (| sh, <<<)',
    hooks: {
      PreToolUse: [commandLogger('Bash(rm *)')],
    },
    payloads: [
      {
        id: 'many',
        calls: HIDDEN_RM_COMMANDS.map(bash),
      },
    ],
  },
  {
    id: 'if-bash-patterns',
    wider: 'runs of spaces in a pattern read as one, as Claude Code reads them; the engine may run a Bash guard for more spellings',
    hooks: {
      PreToolUse: ifLoggers(
        'Bash',
        [
          'Bash(rm)',
          'Bash(rm:*)',
          'Bash(rm*)',
          'Bash(rm -rf:*)',
          'Bash(rm -rf *)',
          'Bash( rm *)',
          'Bash(*rm*)',
          'Bash(* rm *)',
          'Bash(rm -f nf*)',
          'Bash(RM *)',
          'Bash(rm  *)',
          'Bash(*)',
          'Bash(rm -f)',
          'Bash(rm -f *)',
        ],
        '(.tool_input.command | gsub("\\t"; "<TAB>"))',
      ),
    },
    payloads: [
      {
        id: 'many',
        calls: [
          'rm',
          'rm -f nf1',
          'rm -rf nf2',
          'rmdir nodir || true',
          'rm -f -r nf3',
          'echo rm',
          'ls; rm -f nf4',
          'rm  -f nf5',
          'rm\t-f nf6',
          'rm -fr nf9',
          'rm -f',
          'rm -rfv nf10',
        ].map(bash),
      },
    ],
  },
  {
    id: 'if-git-spellings',
    wider: "a guard also runs with git's leading options (git -C d push), for /usr/bin/git and past timeout",
    hooks: {
      PreToolUse: [commandLogger('Bash(git push *)')],
    },
    payloads: [
      {
        id: 'many',
        calls: [
          bash('git push origin x1 || true'),
          bash('git  push origin x2 || true'),
          bash('git -C . push origin x3 || true'),
          bash('git push'),
          bash('git push:foo || true'),
          bash('git pushx || true'),
          bash('git -c a=b push x5 || true'),
          bash('GIT_DIR=. git push x6 || true'),
          bash('git --no-pager push x7 || true'),
          bash('cd . && git push x8 || true'),
          bash("git 'push' x9 || true"),
          bash('git pu""sh x10 || true'),
          bash('g=git; $g push x11 || true'),
          bash('git $(echo push) x12 || true'),
          bash('git status x13 || true'),
          bash('/usr/bin/git push x14 || true'),
          bash('timeout 9 git push x15 || true'),
          bash('git\tpush x16 || true'),
          bash('echo x17 | git push || true'),
          bash('git push -f x18 || true'),
        ],
      },
    ],
  },
  {
    id: 'if-path-spellings',
    wider: "an Edit(…) rule also covers Write, as in permission rules; Claude Code 2.1.328 matches an if rule's tool by name",
    hooks: {
      PreToolUse: ifLoggers(
        'Write',
        [
          'Write(.env)',
          'Write(*.env)',
          'Write(**/.env)',
          'Write(src/**)',
          'Write(./src/*.ts)',
          'Edit(.env)',
          'Write(/src/**)',
          'Write(sub/)',
          'Write(.env*)',
        ],
        '(.tool_input.file_path | sub(".*/work/"; ""))',
      ),
    },
    payloads: [
      {
        id: 'many',
        calls: [
          '.env',
          './.env',
          'sub/.env',
          'a.env',
          'src/a.ts',
          'src/deep/b.ts',
          './src/c.ts',
          'src/../.env',
          'sub/../.env',
          '.ENV',
          '.env.local',
          'src/.env',
          'sub/x.txt',
          './/.env',
          'sub//.env',
        ].map((f) => write(f, 'x\n')),
      },
    ],
  },
  {
    id: 'if-read-spellings',
    // Claude Code 2.1.328 reads `./name` as `name` at any depth (Read(./.env) ran for sub/.env),
    // `./dir/name` at the working directory. Its Grep and Glob calls reached no PreToolUse hook
    // here (not even one without `if`), so they are not among the calls; the hook without `if`
    // shows every Read did.
    wider: "a guard reads name/** as the folder at any depth, as Claude Code's deny rules do (its if does not)",
    hooks: {
      PreToolUse: ifLoggers(
        'Read|Grep|Glob',
        [
          'Read(.env)',
          'Read(./.env)',
          'Read(./sub/.env)',
          'Read(sub/.env)',
          'Read(./secrets/**)',
          'Read(secrets/**)',
          'Read(**/secrets/**)',
          'Read(/secrets/**)',
          'Read(secrets)',
          'Read(./*.pem)',
          'Read(*.pem)',
          'Read(.env*)',
          'Grep(secrets/**)',
          'Glob(secrets/**)',
          '',
        ],
        '.tool_name + "|" + (.tool_input | tostring | gsub("/tmp/[^\\"/]*/work/?"; "W/"))',
      ),
    },
    payloads: [
      {
        id: 'many',
        calls: [
          ...[
            '.env',
            './.env',
            'sub/.env',
            'x/sub/.env',
            '.ENV',
            '.env.local',
            'secrets/key',
            'x/secrets/key',
            'SECRETS/key',
            'secrets/deep/key.pem',
            'a.pem',
            'sub/../.env',
            'notes.txt',
          ].map((f): ToolCall => ({ name: 'Read', input: { file_path: f } })),
        ],
      },
    ],
  },
  {
    id: 'if-edit-spellings',
    // Edit needs the file and the old text to exist: the first call writes them.
    wider: "a guard reads name/** as the folder at any depth, as Claude Code's deny rules do (its if does not)",
    hooks: {
      PreToolUse: ifLoggers(
        'Edit|MultiEdit|NotebookEdit',
        ['Edit(.env)', 'Edit(./.env)', 'Edit(src/**)', 'Edit(*.ts)', 'Edit(./src/a.ts)', 'Write(.env)', 'Edit(config/**)', ''],
        '.tool_name + "|" + (.tool_input.file_path // .tool_input.notebook_path | sub(".*/work/"; ""))',
      ),
    },
    payloads: [
      {
        id: 'many',
        calls: [
          bash(
            'mkdir -p src/deep x/config config && for f in .env src/a.ts src/deep/b.ts x/config/c.json config/d.json sub.ts; do mkdir -p $(dirname $f); echo old > $f; done',
          ),
          ...['.env', 'src/a.ts', 'src/deep/b.ts', 'x/config/c.json', 'config/d.json', 'sub.ts', './.env'].map(
            (f): ToolCall => ({ name: 'Edit', input: { file_path: f, old_string: 'old', new_string: 'new' } }),
          ),
        ],
      },
    ],
  },
  {
    id: 'if-webfetch-spellings',
    // Claude Code 2.1.328 ran none of the `WebFetch(domain:…)` guards, for any URL (the bare
    // `WebFetch` rule ran for each): a guard on a domain runs under the engine where it names the host.
    wider: 'a WebFetch(domain:…) guard runs for a URL on that host (or under a *. domain); Claude Code 2.1.328 ran it for none',
    hooks: {
      PreToolUse: ifLoggers('WebFetch', ['WebFetch(domain:example.com)', 'WebFetch(domain:*.example.com)', 'WebFetch'], '.tool_input.url'),
    },
    payloads: [
      {
        id: 'many',
        calls: EXAMPLE_COM_URLS.map((url): ToolCall => ({ name: 'WebFetch', input: { url, prompt: 'summarize' } })),
      },
    ],
  },
  {
    id: 'matcher-spellings',
    hooks: {
      PreToolUse: [
        'bash',
        'BASH',
        'Bash ',
        ' Bash',
        'Bash,Write',
        'Bash, Write',
        'Bash | Write',
        'Bash|Write',
        'Ba',
        'Bas.*',
        '^Ba',
        'ash',
        'B.sh',
        '.*',
        '*',
        '',
        'Bash|',
        '(Bash)',
        'Bash$',
        '^Bash$',
        'Edit',
        'Wri',
        'Write*',
        '[Bb]ash',
        'Bash(ls)',
        'Bash(*)',
        'mcp__.*',
        'Bash|Notreal',
        'Write|Edit|MultiEdit',
        'Read',
      ].map((matcher) => ({
        matcher,
        hooks: [cmd(`jq -r --arg m '${matcher}' '"[" + $m + "]|" + .tool_name' >> hook-runs.log`)],
      })),
    },
    payloads: [{ id: 'three', calls: [bash('true'), write('m.txt', 'x\n'), { name: 'Read', input: { file_path: 'm.txt' } }] }],
  },
  // ---- a hook that declares itself async on its first stdout line -------------------------------
  {
    // Claude Code 2.1.328 does not wait for it, and hands the model the context and systemMessage of
    // the JSON printed after the declaration on its next request; plain text never reaches the model.
    // The engine waits and hands the same over at once: the same markers reach the model, a turn earlier.
    id: 'async-first-line',
    hooks: {
      SessionStart: [
        {
          hooks: [
            cmd(
              `echo '{"async":true,"asyncTimeout":15000}'; ${json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'M_ASYNCSS late' }, systemMessage: 'M_ASYNCSYS note' })}`,
            ),
            cmd(`echo '{"async":true,"asyncTimeout":15000}'; echo 'M_ASYNCPLAIN plain'`),
          ],
        },
      ],
      PostToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            cmd(
              `echo '{"async":true}'; ${json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'M_ASYNCPOST late' } })}`,
            ),
          ],
        },
      ],
    },
    payloads: [{ id: 'two', calls: [ran('M_ONE', 'sleep 3'), ran('M_TWO', 'sleep 3')] }],
  },
  {
    // After the declaration nothing decides: a deny and an exit 2 block nothing, their reason and
    // stderr never reach the model, and the context printed before the exit 2 still does.
    id: 'async-first-line-decisions',
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            cmd(
              `echo '{"async":true}'; ${json(preOut({ permissionDecision: 'deny', permissionDecisionReason: 'M_ASYNCDENY', additionalContext: 'M_ASYNCPRE' }))}`,
            ),
            cmd(`echo '{"async":true}'; ${json(preOut({ additionalContext: 'M_ASYNCEXIT' }))}; echo M_ASYNCERR >&2; exit 2`),
          ],
        },
      ],
    },
    payloads: [{ id: 'two', calls: [ran('M_ONE', 'sleep 3'), ran('M_TWO', 'sleep 3')] }],
  },
  {
    // Claude Code goes on at the declaration: the hook, still running, sees the tool's effect.
    // dispatch waits for it (one process per event; docs/backends.md), so there it sees none.
    id: 'async-first-line-wait',
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            cmd(
              `echo '{"async":true}'; i=0; while [ $i -lt 30 ] && ! grep -q M_ONE ran.log 2>/dev/null; do sleep 0.1; i=$((i+1)); done; if grep -q M_ONE ran.log; then echo saw-the-tool; else echo waited-for; fi >> hook-runs.log`,
            ),
          ],
        },
      ],
    },
    payloads: [{ id: 'two', calls: [ran('M_ONE', 'sleep 1'), ran('M_TWO', 'sleep 1')] }],
    deliberate: {
      why: 'dispatch waits for a hook that declares itself async on its first line (one process per event); Claude Code goes on at once',
      payloads: ['two'],
    },
  },
];

/** Marker tokens in a text. */
export function markers(text: string): string[] {
  return [...new Set(text.match(/M_[A-Z0-9]+/g) ?? [])].sort();
}
