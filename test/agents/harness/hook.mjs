// The one hook program of the agents suite: `node hook.mjs <runDir> <dialect> <mode> <token>`.
// It logs the payload it got (runDir/hook-payloads.jsonl) and answers `mode` in `dialect`'s own
// output format, with `token` as its reason or context so a test can find it in what reached
// the model. Under dispatch it is a Claude-format hook (dialect "claude"); natively it speaks
// the agent's dialect.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [runDir, dialect, mode, token] = process.argv.slice(2);
const raw = readFileSync(0, 'utf8');
appendFileSync(join(runDir, 'hook-payloads.jsonl'), `${JSON.stringify({ mode, dialect, raw })}\n`);
let payload = {};
try {
  payload = JSON.parse(raw);
} catch {}

const say = (obj) => process.stdout.write(JSON.stringify(obj));
const claudeEvent = payload.hook_event_name ?? 'PreToolUse';

/** The call's arguments (Copilot's camelCase payloads may carry them as a JSON string). */
function toolInput() {
  const args = payload.tool_input ?? payload.toolArgs ?? {};
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return {};
  }
}

/** The rewritten shell input, in the field the dialect's shell tool uses. */
function rewrittenInput() {
  const input = { ...toolInput() };
  const cmd = 'touch rewritten-marker';
  if ('cmd' in input) input.cmd = cmd;
  else input.command = cmd;
  return input;
}

function claude() {
  switch (mode) {
    case 'deny-exit2':
      process.stderr.write(token);
      return process.exit(2);
    case 'deny-json':
      return say({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: token } });
    case 'allow':
      return say({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: token } });
    case 'ask':
      return say({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: token } });
    case 'rewrite':
      return say({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: rewrittenInput() } });
    case 'context':
      return say({ hookSpecificOutput: { hookEventName: claudeEvent, additionalContext: token } });
    case 'replace-output':
      return say({
        hookSpecificOutput: {
          hookEventName: 'PostToolUse',
          updatedToolOutput: { stdout: token, stderr: '', interrupted: false, isImage: false },
        },
      });
    case 'block':
      return say({ decision: 'block', reason: token });
    case 'stop-continue':
      return say({ continue: false, stopReason: token });
    case 'stop-once': {
      const fired = join(runDir, 'stop-fired');
      if (existsSync(fired)) return;
      writeFileSync(fired, '');
      return say({ decision: 'block', reason: token });
    }
    case 'permission-allow':
      return say({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    case 'env-guard':
      if (JSON.stringify(toolInput()).includes('.env') || JSON.stringify(payload).includes('.env')) {
        process.stderr.write(token);
        process.exit(2);
      }
      return;
    default:
      process.stderr.write(`hook.mjs: unknown mode ${mode}`);
      process.exit(1);
  }
}

/** Gemini CLI's output: top-level decision/reason, hookSpecificOutput tool_input/tool_output/additionalContext. */
function gemini() {
  const event = payload.hook_event_name ?? 'BeforeTool';
  switch (mode) {
    case 'deny-json':
      return say({ decision: 'deny', reason: token });
    case 'allow':
      return say({ decision: 'allow', reason: token });
    case 'ask':
      return say({ decision: 'ask', reason: token });
    case 'rewrite':
      return say({ decision: 'allow', hookSpecificOutput: { hookEventName: event, tool_input: rewrittenInput() } });
    case 'context':
      return say({ hookSpecificOutput: { hookEventName: event, additionalContext: token } });
    case 'replace-output':
      return say({ hookSpecificOutput: { hookEventName: event, tool_output: token } });
    case 'block':
      return say({ decision: 'deny', reason: token });
    case 'stop-once': {
      const fired = join(runDir, 'stop-fired');
      if (existsSync(fired)) return;
      writeFileSync(fired, '');
      return say({ decision: 'deny', reason: token });
    }
    default:
      return claude();
  }
}

/** Copilot CLI 1.0 (camelCase events): permissionDecision/modifiedArgs, modifiedResult, decision block. */
function copilot() {
  switch (mode) {
    case 'deny-json':
      return say({ permissionDecision: 'deny', permissionDecisionReason: token });
    case 'allow':
      return say({ permissionDecision: 'allow', permissionDecisionReason: token });
    case 'ask':
      return say({ permissionDecision: 'ask', permissionDecisionReason: token });
    case 'rewrite':
      return say({ permissionDecision: 'allow', modifiedArgs: rewrittenInput() });
    case 'context':
      return say({ additionalContext: token });
    case 'replace-output':
      return say({ modifiedResult: { textResultForLlm: token, resultType: 'success' } });
    case 'block':
      return say({ decision: 'block', reason: token });
    case 'permission-allow':
      return say({ behavior: 'allow' });
    default:
      return claude();
  }
}

/** Cline 3.0: stdout JSON only (exit codes are never read); its one stop is cancel, which ends the task. */
function cline() {
  switch (mode) {
    case 'deny-json':
    case 'ask':
    case 'block':
      return say({ cancel: true, errorMessage: token });
    case 'rewrite':
      return say({ overrideInput: { commands: ['touch rewritten-marker'] } });
    case 'context':
      return say({ contextModification: token });
    case 'allow':
      return say({});
    case 'stop-once': {
      const fired = join(runDir, 'stop-fired');
      if (existsSync(fired)) return;
      writeFileSync(fired, '');
      return say({ cancel: true, errorMessage: token });
    }
    case 'env-guard':
      if (JSON.stringify(payload).includes('.env')) return say({ cancel: true, errorMessage: token });
      return;
    default:
      return claude();
  }
}

// Codex and Qwen Code read Claude-shaped output (codex-rs/hooks output_parser.rs, qwen-code hooks).
const DIALECTS = { claude, codex: claude, gemini, copilot, cline };
const answer = DIALECTS[dialect];
if (!answer) {
  process.stderr.write(`hook.mjs: unknown dialect ${dialect}`);
  process.exit(1);
}
answer();
