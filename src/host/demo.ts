/**
 * `agent-hooks demo`: a scripted session of the reference runtime in a temporary workspace,
 * with example hooks installed in its .claude/settings.json, printing every event, hook and
 * decision. No network: the model is scripted and the one MCP server is a local stdio process.
 *
 * The hooks show: a guard that blocks a dangerous command, an input rewrite, context injection,
 * a Stop hook that asks for one more turn, a blocked compaction, and an MCP elicitation answered
 * by a hook.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Decision } from '../reduce/reduce.js';
import { CompactionBlockedError } from './compaction.js';
import { mcpProvider } from './mcp/index.js';
import { scriptedModel } from './model.js';
import { startHostSession, type HostSession, type TraceEntry } from './runtime.js';
import { forTerminal } from '../util/terminal-text.js';

/** The example hooks, written into the demo workspace's .claude/hooks/. Plain Node scripts. */
const HOOK_SCRIPTS: Record<string, string> = {
  'session-start.mjs': `// SessionStart: context for the model, and an environment variable for the session.
import { appendFileSync } from 'node:fs';
if (process.env.CLAUDE_ENV_FILE) appendFileSync(process.env.CLAUDE_ENV_FILE, 'export DEMO_STAGE=staging\\n');
process.stdout.write('This is the agent-hooks demo workspace. Deployments go to staging.');
`,
  'inject-context.mjs': `// UserPromptSubmit: inject project facts next to every prompt.
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'The test command is "node --test". Never delete the build directory by hand.' } }));
`,
  'guard-bash.mjs': `// PreToolUse (Bash): block rm -rf; exit 2 = block, stderr = the reason the model sees.
let input = '';
process.stdin.on('data', (c) => (input += c)).on('end', () => {
  const { tool_input } = JSON.parse(input);
  if (/\\brm\\s+-[a-z]*r[a-z]*f|\\brm\\s+-[a-z]*f[a-z]*r/.test(tool_input.command ?? '')) {
    process.stderr.write('Blocked: rm -rf is not allowed in this project; use "npm run clean".');
    process.exit(2);
  }
});
`,
  'add-header.mjs': `// PreToolUse (Write): rewrite the input, adding a header to new JavaScript files.
let input = '';
process.stdin.on('data', (c) => (input += c)).on('end', () => {
  const { tool_input } = JSON.parse(input);
  if (!tool_input.file_path.endsWith('.js') || tool_input.content.startsWith('// SPDX')) return;
  const updatedInput = { ...tool_input, content: '// SPDX-License-Identifier: MIT\\n' + tool_input.content };
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'license header added', updatedInput } }));
});
`,
  'verify-before-stop.mjs': `// Stop: when the model says it is done, ask for one more turn to verify (once: not when already continuing).
let input = '';
process.stdin.on('data', (c) => (input += c)).on('end', () => {
  const { stop_hook_active, last_assistant_message = '' } = JSON.parse(input);
  if (!stop_hook_active && /\\bdone\\b/i.test(last_assistant_message)) process.stdout.write(JSON.stringify({ decision: 'block', reason: 'Before you finish: read hello.js back and check it.' }));
});
`,
  'keep-history.mjs': `// PreCompact: block manual compaction (the engine's blockCompaction flag).
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreCompact', blockCompaction: true }, reason: 'the audit needs the full history' }));
`,
  'answer-elicitation.mjs': `// Elicitation: answer the MCP server's form without asking the user.
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { name: 'Ada' } } }));
`,
};

/**
 * The greeter server is written with the MCP SDK, an optional peer dependency. Without it the demo
 * leaves out its MCP step (and says so) instead of failing the whole session.
 */
function mcpSdkInstalled(): boolean {
  try {
    import.meta.resolve('@modelcontextprotocol/sdk/server/index.js');
    return true;
  } catch {
    return false;
  }
}

/** A tiny stdio MCP server with one tool that asks the client for a name (elicitation). */
function mcpServerScript(): string {
  const server = import.meta.resolve('@modelcontextprotocol/sdk/server/index.js');
  const stdio = import.meta.resolve('@modelcontextprotocol/sdk/server/stdio.js');
  const types = import.meta.resolve('@modelcontextprotocol/sdk/types.js');
  return `import { Server } from ${JSON.stringify(server)};
import { StdioServerTransport } from ${JSON.stringify(stdio)};
import { CallToolRequestSchema, ListToolsRequestSchema } from ${JSON.stringify(types)};
const server = new Server({ name: 'greeter', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'greet', description: 'Greet the user by name (asks for it)', inputSchema: { type: 'object', properties: {} } }],
}));
server.setRequestHandler(CallToolRequestSchema, async () => {
  const answer = await server.elicitInput({
    message: 'What name should I greet?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name', minLength: 1 } }, required: ['name'] },
  });
  const text = answer.action === 'accept' ? 'Hello, ' + answer.content.name + '!' : 'No name given (' + answer.action + ')';
  return { content: [{ type: 'text', text }] };
});
await server.connect(new StdioServerTransport());
`;
}

function settingsFor(): Record<string, unknown> {
  const node = (script: string) => ({
    type: 'command',
    command: process.execPath,
    args: [`\${CLAUDE_PROJECT_DIR}/.claude/hooks/${script}`],
  });
  return {
    hooks: {
      SessionStart: [{ matcher: 'startup', hooks: [node('session-start.mjs')] }],
      UserPromptSubmit: [{ hooks: [node('inject-context.mjs')] }],
      PreToolUse: [
        { matcher: 'Bash', hooks: [node('guard-bash.mjs')] },
        { matcher: 'Write', hooks: [node('add-header.mjs')] },
      ],
      Stop: [{ hooks: [node('verify-before-stop.mjs')] }],
      PreCompact: [{ matcher: 'manual', hooks: [node('keep-history.mjs')] }],
      Elicitation: [{ matcher: 'greeter', hooks: [node('answer-elicitation.mjs')] }],
      SessionEnd: [{ hooks: [{ type: 'command', command: 'true' }] }],
    },
  };
}

const clip = (s: string, n = 110) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/** One line per hook that ran: where it came from, what it did, what it decided. */
function hookLines(decision: Decision, ws: string): string[] {
  return decision.hooks.map((h) => {
    const where = h.source.file ? `${path.relative(ws, h.source.file)}#${h.source.path}` : h.id;
    const exit = h.exitCode !== null && h.exitCode !== undefined ? `exit ${h.exitCode}` : h.outcome;
    const verdict = h.decision ? ` → ${h.decision}${h.reason ? `: ${clip(h.reason, 90)}` : ''}` : '';
    return `      hook ${where} (${exit}, ${Math.round(h.durationMs)} ms)${verdict}`;
  });
}

function summary(decision: Decision): string {
  const parts: string[] = [];
  if (decision.decision) parts.push(`decision ${decision.decision}${decision.blocked ? ' (blocked)' : ''}`);
  if (decision.updatedInput) parts.push(`input rewritten`);
  if (decision.additionalContext.length) parts.push(`context: "${clip(decision.additionalContext.join(' | '), 70)}"`);
  const env = decision.eventOutput.env as Record<string, string> | undefined;
  if (env) parts.push(`env: ${Object.keys(env).join(', ')}`);
  if (typeof decision.eventOutput.action === 'string')
    parts.push(
      `action ${decision.eventOutput.action}${decision.eventOutput.content ? ` ${JSON.stringify(decision.eventOutput.content)}` : ''}`,
    );
  return parts.length ? ` ⇒ ${parts.join('; ')}` : '';
}

export interface DemoOptions {
  /** Where the trace goes (default: stdout). */
  write?: (line: string) => void;
  /** Keep the temporary workspace (its path is printed). */
  keep?: boolean;
}

/** The temporary workspace: the hook scripts, their settings and, with the SDK, the MCP server script. */
function prepareWorkspace(withMcp: boolean): { root: string; ws: string; home: string; serverFile?: string } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-hooks-demo-')));
  const ws = path.join(root, 'workspace');
  const home = path.join(root, 'home');
  mkdirSync(path.join(ws, '.claude', 'hooks'), { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [name, text] of Object.entries(HOOK_SCRIPTS)) writeFileSync(path.join(ws, '.claude', 'hooks', name), text);
  writeFileSync(path.join(ws, '.claude', 'settings.json'), `${JSON.stringify(settingsFor(), null, 2)}\n`);
  if (!withMcp) return { root, ws, home };
  const serverFile = path.join(root, 'greeter-server.mjs');
  writeFileSync(serverFile, mcpServerScript());
  return { root, ws, home, serverFile };
}

/** One line per traced event, hook, model message, tool outcome and warning. */
function traceTo(out: (line: string) => void, ws: string): (t: TraceEntry) => void {
  return (t) => {
    switch (t.kind) {
      case 'hooks':
        if (t.decision.hooks.length === 0) out(`  · ${t.event}`);
        else {
          out(`  ⚡ ${t.event}${summary(t.decision)}`);
          for (const l of hookLines(t.decision, ws)) out(l);
        }
        break;
      case 'message': {
        const who = t.actor.agentId ? `subagent ${t.actor.agentId}` : '';
        if (t.message.role === 'assistant') {
          if (t.message.content) out(`  ${who}model: ${clip(t.message.content)}`);
          for (const c of t.message.toolCalls ?? []) out(`  ${who}model → ${c.name} ${clip(JSON.stringify(c.input), 90)}`);
        }
        break;
      }
      case 'tool': {
        const o = t.outcome;
        out(
          `  ${o.status === 'denied' ? '✗' : o.status === 'ok' ? '✓' : '!'} ${o.toolName} ${o.status}${o.deniedBy ? ` by ${o.deniedBy}` : ''}: ${clip(o.content, 100)}`,
        );
        break;
      }
      case 'warning':
        out(`  warning: ${t.text}`);
        break;
      default:
        break;
    }
  };
}

function demoModel(ws: string) {
  return scriptedModel([
    { text: 'I will clean the build directory first.', toolCalls: [{ name: 'Bash', input: { command: 'rm -rf build' } }] },
    {
      text: 'Understood, I will leave build/ alone. Creating hello.js.',
      toolCalls: [{ name: 'Write', input: { file_path: path.join(ws, 'hello.js'), content: "console.log('hello');\n" } }],
    },
    { text: 'Done: hello.js is created.' },
    { toolCalls: [{ name: 'Read', input: { file_path: path.join(ws, 'hello.js') } }] },
    { text: 'Checked: hello.js has the license header and prints hello.' },
    { toolCalls: [{ name: 'mcp__greeter__greet', input: {} }] },
    { text: 'The greeter says hello to Ada.' },
  ]);
}

/** The scripted session, step by step; `expect` collects what did not behave as the hooks said. */
async function runSteps(out: (line: string) => void, dirs: ReturnType<typeof prepareWorkspace>, problems: string[]): Promise<void> {
  const { root, ws, home, serverFile } = dirs;
  const expect = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  out('1. Session start');
  const started = await startHostSession({
    workspace: ws,
    sessionId: 'demo-session',
    model: demoModel(ws),
    mode: 'acceptEdits',
    permissions: { allow: ['mcp__greeter__greet'] },
    // The demo wrote this workspace itself a moment ago: its hooks need no trust review.
    config: { homeDir: home, managedSettingsPath: path.join(root, 'no-managed-settings.json'), unsafeSkipTrustGate: true },
    heartbeatMs: 0,
    loadInstructions: false,
    ...(serverFile ? { mcp: mcpProvider({ servers: { greeter: { command: process.execPath, args: [serverFile] } } }) } : {}),
    onTrace: traceTo(out, ws),
  });
  if (!started.ok) throw new Error(`the demo session was refused: ${started.reason}`);
  const s = started.session;
  out(`  session env (frozen after SessionStart): ${JSON.stringify(s.env)}`);
  expect(s.env.DEMO_STAGE === 'staging', 'SessionStart did not add DEMO_STAGE');

  out('');
  out('2. A turn: "Clean up and create hello.js" (guard, rewrite, context, Stop asks for one more turn)');
  const turn = await s.submit('Clean up the build directory and create hello.js that prints hello.');
  out(`  turn ${turn.status} after ${turn.steps} model calls`);
  expect(turn.status === 'completed', `turn ended ${turn.status}`);
  const tools = s.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  expect(/rm -rf is not allowed/.test(tools[0] ?? ''), 'the guard did not block rm -rf');
  expect(
    readFileSync(path.join(ws, 'hello.js'), 'utf8').startsWith('// SPDX-License-Identifier: MIT'),
    'the Write rewrite did not reach the file',
  );

  out('');
  out('3. Manual compaction (a PreCompact hook blocks it)');
  try {
    await s.compact();
    problems.push('compaction was not blocked');
  } catch (e) {
    if (!(e instanceof CompactionBlockedError)) throw e;
    out(`  CompactionBlockedError: ${e.reason}`);
  }

  out('');
  out('4. An MCP tool asks for input (an Elicitation hook answers before any dialog)');
  if (!serverFile) {
    out(
      '  left out: the greeter MCP server needs @modelcontextprotocol/sdk (an optional peer dependency: npm install @modelcontextprotocol/sdk)',
    );
  } else await greetStep(s, expect);

  out('');
  out('5. Session end');
  await s.end('other');
}

async function greetStep(s: HostSession, expect: (ok: boolean, what: string) => void): Promise<void> {
  const greet = await s.submit('Greet me through the greeter server.');
  expect(greet.status === 'completed', `greeting turn ended ${greet.status}`);
  const greeting = s.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
  expect(greeting.includes('Hello, Ada!'), `the elicitation was not answered by the hook (got ${JSON.stringify(greeting)})`);
}

/** Run the demo; resolves with the exit code (0 when every step behaved as the hooks said). */
export async function runDemo(options: DemoOptions = {}): Promise<number> {
  const out = options.write ?? ((line: string) => process.stdout.write(`${forTerminal(line)}\n`));
  const dirs = prepareWorkspace(mcpSdkInstalled());
  const { root, ws } = dirs;
  const problems: string[] = [];

  out(`agent-hooks demo — a scripted agent session in ${ws}`);
  out(
    'Hooks installed in .claude/settings.json: bash guard, Write rewrite, prompt context, Stop "one more turn", PreCompact block, Elicitation answer.',
  );
  out('Legend: ⚡ event with hooks (⇒ what they decided), · event without hooks, ✓/✗/! tool ran / was denied / failed.');
  out('');

  let code = 0;
  try {
    await runSteps(out, dirs, problems);
  } catch (e) {
    problems.push((e as Error)?.message ?? String(e));
  } finally {
    if (options.keep) out(`\nWorkspace kept: ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
  out('');
  if (problems.length) {
    code = 1;
    out(`Demo FAILED: ${problems.join('; ')}`);
  } else {
    out(
      `Demo finished: every event above came from the runtime (src/host); the decisions came from the hooks in ${path.join('.claude', 'settings.json')}.`,
    );
    if (!options.keep) out(`Temporary workspace removed: ${root}`);
  }
  return code;
}
