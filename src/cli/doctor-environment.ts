/** `agent-hooks doctor`'s look at its environment: what it costs every hook run, not one hook. */
/** A note of doctor's, shaped as its per-hook findings (src/cli/doctor.ts). */
export interface EnvironmentFinding {
  /** Notes only: they describe a cost, never a hook that cannot run, and count as neither errors nor warnings. */
  level: 'info';
  message: string;
}

/**
 * What the environment costs each `agent-hooks dispatch` before any of our code runs. Node 20
 * loads its whole certificate store at start when NODE_EXTRA_CA_CERTS is set (the extra file and
 * the bundled roots), in every process: measured here (Node v20.20.2) `node -e 0` takes 31 ms,
 * 53 ms with a file of one certificate, 79 ms with Debian's bundle of 144, against ~15–20 ms
 * for everything dispatch itself adds (docs/performance.md, "What the environment costs").
 */
export function environmentFindings(env: NodeJS.ProcessEnv): EnvironmentFinding[] {
  const out: EnvironmentFinding[] = [];
  const ca = env.NODE_EXTRA_CA_CERTS;
  if (ca)
    out.push({
      level: 'info',
      message: `NODE_EXTRA_CA_CERTS is set in this environment (${ca}): Node 20 reads its certificate stores at the start of every process, which made each \`agent-hooks dispatch\` 20–50 ms slower where measured; where nothing dispatch does needs that CA (http, prompt and agent hooks, \`--remote\`, audit and telemetry exporters, and hooks it is passed through to), the agent's hook command can be \`env -u NODE_EXTRA_CA_CERTS agent-hooks dispatch …\` (docs/performance.md)`,
    });
  return out;
}
