import { redact } from "./redact.js";

/** Receives one line per event (request sent, response, retry, token fetched). Lines are already redacted. */
export type DebugLogger = (line: string) => void;

let moduleLogger: DebugLogger | undefined;

/**
 * Install (or remove, with undefined) the process-wide debug logger, e.g. one forwarding to
 * `pulumi.log.debug` so lines appear in `pulumi up --debug`. Without one, setting env
 * CDC_DEBUG=1 writes to stderr.
 */
export function setDebugLogger(logger: DebugLogger | undefined): void {
  moduleLogger = logger;
}

function envLogger(): DebugLogger | undefined {
  const v = process.env.CDC_DEBUG;
  if (!v || v === "0" || v.toLowerCase() === "false") return undefined;
  return (line) => process.stderr.write(`[cdc] ${line}\n`);
}

/** Cheap when nobody listens: the line is built lazily. */
export function emitDebug(line: () => string, local?: DebugLogger): void {
  const logger = local ?? moduleLogger ?? envLogger();
  if (!logger) return;
  try {
    logger(redact(line()));
  } catch {
    // A failing logger must never fail an API call.
  }
}
