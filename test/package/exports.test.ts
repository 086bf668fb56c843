/**
 * The public surface, reviewed: every entry of package.json "exports" (`.`, `./sdk`, …) exports
 * exactly the names listed here, values and types alike (read from the TypeScript program over
 * the entry's source, so a type-only export counts). A name added to an entry without being added
 * here fails, and so does a listed name that an entry stopped exporting: both change what users
 * can import, so both are decided on purpose (docs/library.md says what each entry is for).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HOW =
  'Review it: a name belongs in an entry only if that entry’s audience needs it (docs/library.md); ' +
  'then update REVIEWED in test/package/exports.test.ts and add a CHANGELOG line (under "Breaking" for a removal).';

/** The reviewed names of each entry, sorted. */
const REVIEWED: Record<string, string[]> = {
  '.': [
    'AuditEntry',
    'AuditSink',
    'Decision',
    'EVENT_NAMES',
    'EventInput',
    'EventName',
    'EventOutput',
    'FunctionHookResult',
    'HookEngine',
    'HookEngineOptions',
    'HookManager',
    'HookManagerOptions',
    'HookRegistration',
    'InvalidHookInputError',
    'LoadedConfig',
    'RunContext',
    'RunInput',
    'SessionCounterStore',
    'SessionHandle',
    'TrustOptions',
    'TrustRefusedError',
    'TrustReport',
    'TrustState',
    'TrustStoreError',
    'UntypedHookEngine',
    'createHookEngine',
    'createHookManager',
    'loadConfig',
    'loadTrustedConfig',
    'memoryCounterStore',
    'revokeWorkspace',
    'trustWorkspace',
    'untyped',
  ],
  './sdk': [
    'DefineHookOptions',
    'EVENT_NAMES',
    'EventName',
    'HookContext',
    'HookHandler',
    'HookInput',
    'HookIntent',
    'HookOutput',
    'HookResult',
    'HookRunResult',
    'IntentFor',
    'IntentKind',
    'addContext',
    'allow',
    'ask',
    'block',
    'checkOutput',
    'defer',
    'defineHook',
    'deny',
    'message',
    'rewrite',
    'runHook',
    'stop',
    'strictOutputSchema',
  ],
  './stages': [
    'Backend',
    'BackendContext',
    'ConnectTarget',
    'Decision',
    'Diagnostic',
    'ExecutionResult',
    'HookRecord',
    'HttpBackendOptions',
    'LintOptions',
    'ModelProvider',
    'ModelProviderError',
    'ModelRequest',
    'NormalizedHook',
    'OpenAICompatibleOptions',
    'ParsedHook',
    'PluginIntegrator',
    'PluginIntegratorOptions',
    'PromptBackendOptions',
    'PromptBackends',
    'Resolver',
    'SessionSnapshot',
    'TargetDecision',
    'Verdict',
    'buildHookEnv',
    'catalog',
    'checkHttpTarget',
    'checkInput',
    'compileMatcher',
    'createPluginIntegrator',
    'createPromptBackends',
    'defaultResolver',
    'encodePayload',
    'evaluateTrust',
    'extractToolPaths',
    'httpBackend',
    'inputSchema',
    'lintHooks',
    'matchRule',
    'mcpToolBackend',
    'openAICompatibleProvider',
    'outputSchema',
    'parseExecution',
    'parseJsonObject',
    'parseRule',
    'reduce',
    'runCommand',
    'runHttpHook',
    'spawnerPid',
    'spawnerReady',
  ],
  './claude-agent-sdk': ['ClaudeAgentSdkHookOptions', 'ClaudeAgentSdkHooks', 'claudeAgentHooks'],
  './langchain': ['LangChainHookOptions', 'agentHooksMiddleware'],
  './openai-agents': ['OpenAIAgentsHookOptions', 'withAgentHooks'],
  './dialects': [
    'ConvertResult',
    'DIALECTS',
    'DIALECT_NAMES',
    'Dialect',
    'DialectName',
    'DispatchFlags',
    'DispatchInput',
    'DispatchOutput',
    'Loss',
    'SerializeResult',
    'WIRE',
    'WireAdapter',
    'convertText',
    'detectDialect',
    'dispatch',
    'getDialect',
    'isDialectName',
    'loadForeignSettings',
    'parseDialect',
    'readDocument',
    'serializeDialect',
  ],
  './mcp': [
    'McpCallFailure',
    'McpCallOutcome',
    'McpClient',
    'McpClientOptions',
    'McpToolResult',
    'McpClientManager',
    'McpClientManagerOptions',
    'McpConfigError',
    'McpServerConfig',
    'McpServerStatus',
    'createMcpClientManager',
    'loadMcpConfigFile',
    'parseMcpConfig',
  ],
  './host': [
    'Actor',
    'AfterToolEvent',
    'AutoClassifier',
    'BeforeToolEvent',
    'CompactEvent',
    'CompactionBlockedError',
    'CompactionResult',
    'CompactionService',
    'ElicitationRequest',
    'ElicitationResponse',
    'HookListenerOptions',
    'HookRunner',
    'HostPermissionMode',
    'HostSession',
    'HostSessionOptions',
    'HostTool',
    'InstructionsEvent',
    'InterruptEvent',
    'LoopOptions',
    'McpAttachment',
    'McpProvider',
    'McpStartContext',
    'Message',
    'MessageDisplayEvent',
    'Model',
    'ModelError',
    'ModelErrorKind',
    'ModelReply',
    'ModelRequest',
    'NotificationEvent',
    'OpenAIChatModelOptions',
    'PermissionConfigError',
    'PermissionDeniedEvent',
    'PermissionEngine',
    'PermissionRequestEvent',
    'PermissionResultEvent',
    'PermissionRules',
    'PipelineOptions',
    'PostCompactEvent',
    'PromptEvent',
    'PromptQueuedEvent',
    'Prompter',
    'RuleVerdict',
    'RuntimeSlots',
    'ScriptedModel',
    'ScriptedTurn',
    'SessionEndEvent',
    'SessionTickEvent',
    'Slot',
    'SlotControl',
    'SlotEvent',
    'SlotListener',
    'SlotOrderError',
    'SlotOutcome',
    'StartHostSessionResult',
    'StopEvent',
    'StopFailureEvent',
    'SubagentDefinition',
    'SubagentStartEvent',
    'Summarizer',
    'Task',
    'TaskList',
    'TaskStatus',
    'ToolApproval',
    'ToolApprovalRequest',
    'ToolBatchEvent',
    'ToolCall',
    'ToolContext',
    'ToolError',
    'ToolOutcome',
    'ToolPipeline',
    'ToolRegistry',
    'ToolResult',
    'TraceEntry',
    'TurnEvent',
    'TurnResult',
    'TurnStatus',
    'Veto',
    'Worktree',
    'WorktreeManager',
    'applyPatchTool',
    'attachHooks',
    'bashTool',
    'builtinTools',
    'confine',
    'createCompactionService',
    'createPermissionEngine',
    'createRuntimeSlots',
    'createTaskList',
    'createToolPipeline',
    'digestSummarizer',
    'editTool',
    'explicitBlock',
    'globTool',
    'grepTool',
    'multiEditTool',
    'openAIChatModel',
    'readTool',
    'runLoop',
    'scriptedModel',
    'startHostSession',
    'taskTool',
    'toolRegistry',
    'writeTool',
  ],
  './opencode': ['OpencodeHooks', 'OpencodePluginOptions', 'opencodePlugin'],
  './pi': ['PiExtensionApi', 'PluginOptions', 'piExtension'],
  './serve': [
    'PAUSE_FILE_ENV',
    'PauseFileData',
    'PausedSession',
    'RunningServe',
    'ServeApp',
    'ServeOptions',
    'SessionView',
    'StartServeOptions',
    'WorkspaceView',
    'createServeApp',
    'defaultPauseFilePath',
    'isSessionPaused',
    'readPauseFile',
    'setSessionPaused',
    'startServe',
  ],
  './ai-sdk': ['AiSdkHooks', 'FrameworkHookOptions', 'aiSdkHooks'],
  './mcp-client': ['FrameworkHookOptions', 'McpClientHookOptions', 'hookMcpClient'],
  './mastra': ['FrameworkHookOptions', 'MastraHooks', 'mastraHooks'],
};

/** package.json "exports" key → the source file its types come from (./dist/x.d.ts → src/x.ts). */
function entrySources(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const out: Record<string, string> = {};
  for (const [key, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'object' && target !== null ? (target as { types?: string }).types : undefined;
    if (types) out[key] = join(ROOT, types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'));
  }
  return out;
}

/** The names each source file exports, types included. */
function exportedNames(files: Record<string, string>): Record<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  const program = ts.createProgram(Object.values(files), { ...config?.options, noEmit: true });
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [key, file] of Object.entries(files)) {
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`${key}: ${file} is not a module`);
    out[key] = checker
      .getExportsOfModule(symbol)
      .map((s) => s.name)
      .sort();
  }
  return out;
}

/** What an entry exports beyond its reviewed list, and what it no longer exports of it, as messages. */
function surfaceProblems(key: string, actual: readonly string[], reviewed: readonly string[] | undefined): string[] {
  const entry = key === '.' ? 'agent-hooks' : `agent-hooks${key.slice(1)}`;
  if (!reviewed) return [`${entry}: an entry with no reviewed list (${actual.length} names). ${HOW}`];
  const have = new Set(actual);
  const listed = new Set(reviewed);
  return [
    ...actual.filter((n) => !listed.has(n)).map((n) => `${entry} exports \`${n}\`, which is not reviewed. ${HOW}`),
    ...reviewed.filter((n) => !have.has(n)).map((n) => `${entry} no longer exports \`${n}\` (a breaking change). ${HOW}`),
  ];
}

describe('the public surface of every package entry', () => {
  const sources = entrySources();
  const actual = exportedNames(sources);

  it('covers every entry of package.json "exports", and only those', () => {
    expect(Object.keys(sources).sort()).toEqual(Object.keys(REVIEWED).sort());
  });

  it.each(Object.keys(sources))('%s exports exactly its reviewed names', (entry) => {
    expect(actual[entry]!.length).toBeGreaterThan(0);
    expect(surfaceProblems(entry, actual[entry]!, REVIEWED[entry])).toEqual([]);
  });

  it('keeps the main entry to what an embedding agent needs', () => {
    expect(actual['.']!.length).toBeLessThanOrEqual(35);
  });

  it('names an unreviewed addition and a removal, and says how to review them', () => {
    const problems = surfaceProblems('./stages', ['a', 'c'], ['a', 'b']);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^agent-hooks\/stages exports `c`, which is not reviewed\. Review it: .*test\/package\/exports\.test\.ts/);
    expect(problems[1]).toMatch(/^agent-hooks\/stages no longer exports `b` \(a breaking change\)\./);
    expect(surfaceProblems('./new', ['x'], undefined)[0]).toMatch(/no reviewed list/);
  });
});
