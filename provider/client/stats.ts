// Process-wide request counters. They let tests (and benchmarks) check the properties that
// matter for a run, such as "one token per run" or "no request storm on refresh".

export interface RequestCounts {
  /** HTTP requests sent (retries included), keyed `METHOD /path/{template}`. */
  requests: Record<string, number>;
  /** All HTTP requests sent. */
  total: number;
  /** Of those, how many were retries (including the replay after a 401). */
  retries: number;
  tokenRequests: { clientCredentials: number; refresh: number };
}

let counts: RequestCounts = emptyCounts();

function emptyCounts(): RequestCounts {
  return { requests: {}, total: 0, retries: 0, tokenRequests: { clientCredentials: 0, refresh: 0 } };
}

export function recordRequest(method: string, template: string, isRetry: boolean): void {
  const key = `${method.toUpperCase()} ${template}`;
  counts.requests[key] = (counts.requests[key] ?? 0) + 1;
  counts.total++;
  if (isRetry) counts.retries++;
}

export function recordTokenRequest(kind: "clientCredentials" | "refresh"): void {
  counts.tokenRequests[kind]++;
}

/** A snapshot: later requests do not change it. */
export function getRequestCounts(): RequestCounts {
  return {
    requests: { ...counts.requests },
    total: counts.total,
    retries: counts.retries,
    tokenRequests: { ...counts.tokenRequests },
  };
}

export function resetRequestCounts(): void {
  counts = emptyCounts();
}
