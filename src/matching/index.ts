/** Matching: event matchers, `if` permission-rule conditions, tool path extraction. Pure, no I/O. */
export { compileMatcher, MAX_REGEX_MATCH_LENGTH, type CompiledMatcher, type ExactSet } from './matcher.js';
export {
  parseRule,
  matchRule,
  compileCommandPattern,
  EDIT_TOOLS,
  READ_TOOLS,
  type Rule,
  type RuleContext,
  type ParseRuleResult,
  type CommandPattern,
} from './if-rule.js';
export { extractToolPaths, extractPatchPaths, APPLY_PATCH_TOOLS } from './paths.js';
export { compilePathPattern, resolveToolPath, type PathPattern, type PathMatchContext } from './file-pattern.js';
export { analyzeShellCommand, MAX_SHELL_COMMAND_LENGTH, type ShellAnalysis, type SubCommand } from './shell.js';
export { compileMatcherFor } from './modes.js';
