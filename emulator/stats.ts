/**
 * Request counters, so tests can assert how a client used the API (for example that one
 * access-token request served a whole Pulumi run) without reading logs.
 */

export interface EmulatorStats {
  /** Every request received, faulted or not. */
  total: number;
  /** Received requests per `"METHOD /route/:pattern"`; unmatched paths count under `"METHOD <unmatched>"`. */
  requests: Record<string, number>;
  /** Requests received on the token routes (before faults and credential checks). */
  tokenRequests: { accessToken: number; refresh: number };
  /** Token pairs actually issued by those routes. */
  tokensIssued: { accessToken: number; refresh: number };
  /**
   * Faults injected. The garbled answers: `html` (a load balancer's page, unhandled), `truncated`
   * (a body cut off), `wrongShape` (JSON of another shape), `oversized` (a body over any bound).
   */
  faults: {
    delayed: number;
    rateLimited: number;
    failed: number;
    dropped: number;
    lost: number;
    html: number;
    truncated: number;
    wrongShape: number;
    oversized: number;
  };
}

export function emptyStats(): EmulatorStats {
  return {
    total: 0,
    requests: {},
    tokenRequests: { accessToken: 0, refresh: 0 },
    tokensIssued: { accessToken: 0, refresh: 0 },
    faults: { delayed: 0, rateLimited: 0, failed: 0, dropped: 0, lost: 0, html: 0, truncated: 0, wrongShape: 0, oversized: 0 },
  };
}

export function cloneStats(stats: EmulatorStats): EmulatorStats {
  return {
    total: stats.total,
    requests: { ...stats.requests },
    tokenRequests: { ...stats.tokenRequests },
    tokensIssued: { ...stats.tokensIssued },
    faults: { ...stats.faults },
  };
}
