/** Matching: event matchers, `if` permission-rule conditions, tool path extraction. Pure, no I/O. */
export { compileMatcher, MAX_REGEX_MATCH_LENGTH } from './matcher.js';
export {
  parseRule,
  matchRule,
  compileCommandPattern,
  type Rule,
  type RuleContext,
} from './if-rule.js';
export { extractToolPaths, extractPatchPaths } from './paths.js';
