/** The reference host runtime: a small, real agent that fires every hook event from where it belongs (docs/host.md). */
export { startHostSession, type HostSession, type HostSessionOptions, type StartHostSessionResult, type TraceEntry } from './runtime.js';
export {
  runLoop,
  taskTool,
  type LoopOptions,
  type SubagentDefinition,
  type TurnResult,
  type TurnStatus,
  type Worktree,
  type WorktreeManager,
} from './agent.js';
export {
  createCompactionService,
  CompactionBlockedError,
  digestSummarizer,
  type CompactionService,
  type CompactionResult,
  type Summarizer,
} from './compaction.js';
export {
  attachHooks,
  explicitBlock,
  type HookListenerOptions,
} from './hook-listeners.js';
export {
  scriptedModel,
  openAIChatModel,
  ModelError,
  type Model,
  type ModelRequest,
  type ModelReply,
  type Message,
  type ModelErrorKind,
  type ScriptedTurn,
  type ScriptedModel,
  type OpenAIChatModelOptions,
} from './model.js';
export {
  createPermissionEngine,
  PermissionConfigError,
  type PermissionEngine,
  type PermissionRules,
  type RuleVerdict,
  type HostPermissionMode,
} from './permissions.js';
export { createRuntimeSlots } from './runtime-slots.js';
export type * from './runtime-slots.js';
export {
  createSlot,
  SlotOrderError,
  type Slot,
  type SlotListener,
  type SlotControl,
  type SlotEvent,
  type SlotOutcome,
  type Veto,
} from './slots.js';
export { createToolPipeline, type ToolPipeline, type ToolOutcome, type PipelineOptions } from './tool-pipeline.js';
export * from './tools/index.js';
export * from './types.js';
export { createTaskList, type Task, type TaskList, type TaskStatus } from './tasks.js';
