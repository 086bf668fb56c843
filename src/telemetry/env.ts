/** Whether telemetry is on, and the OpenTelemetry keys in force (read by observe.ts and setup.ts). */

export function telemetryEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.AGENT_HOOKS_ENABLE_TELEMETRY;
  return v === '1' || v === 'true';
}

const OTEL_KEYS = [
  'AGENT_HOOKS_ENABLE_TELEMETRY',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_SERVICE_NAME',
  'OTEL_METRIC_EXPORT_INTERVAL',
] as const;

/** The telemetry keys in force: settings `env` over the process environment, as the agent applies settings env. */
export function telemetryEnv(
  settingsEnv: Record<string, string> | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const k of OTEL_KEYS) out[k] = settingsEnv?.[k] ?? env[k];
  return out;
}
