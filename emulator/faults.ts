import { randomInt } from "node:crypto";

/**
 * Fault injection for resilience tests. Decisions come from a seeded PRNG so a run with the
 * same seed and the same request sequence injects the same faults; the rate limiter reads the
 * emulator clock, so tests can drive it without sleeping. Each share (fail, drop, lost answer,
 * and the garbled answers: an HTML page, a body cut off, another shape, an oversized body) also
 * fires for certain within its first ceil(1/share) decisions after the faults are set (see
 * Share), so a run long enough to expect a fault always meets one, whatever the seed and the order
 * of its requests.
 */

export interface FaultSettings {
  /** Added delay before every matched request is handled, in milliseconds. */
  latencyMs: number;
  /** Requests per second allowed across matched routes; 0 disables the limit. Excess gets 429 + Retry-After. */
  rateLimit: number;
  /** Share (0..1) of matched requests answered 503. */
  failRate: number;
  /** Share (0..1) of matched requests whose connection is destroyed without a response. */
  dropRate: number;
  /** Share (0..1) of matched writes (not GET) that are handled, then lose their response (socket destroyed). */
  lostResponseRate: number;
  /**
   * Share (0..1) of matched requests a load balancer answers instead of the API: status 200, an
   * HTML maintenance page, the request never handled (any method).
   */
  htmlRate: number;
  /**
   * Share (0..1) of matched requests answered 2xx whose JSON body is cut off halfway (status and
   * content-length those of what is sent): a parse failure, not a broken connection. A write
   * was handled, so to the client its outcome is unknown, as after a lost answer.
   */
  truncatedRate: number;
  /**
   * Share (0..1) of matched requests answered 2xx whose body is replaced by well-formed JSON of
   * another shape: a listing's items stripped of their fields, else `{"result": "maintenance"}`.
   * Reads and writes, as truncatedRate.
   */
  wrongShapeRate: number;
  /**
   * Share (0..1) of matched reads (GET) answered 2xx whose body is replaced by a JSON array of
   * `oversizedBytes` bytes, streamed. Reads only: a write's answer is one object, never large.
   */
  oversizedRate: number;
  /** Length of an oversized body in bytes (default 64 MiB + 1, over any client's sane bound). */
  oversizedBytes: number;
  /** PRNG seed for fault decisions; undefined picks a random one. */
  seed: number | undefined;
  /** Path prefixes faults apply to; `["/"]` is every route, `[]` none. */
  routes: string[];
  /** Methods faults apply to (`["PATCH"]`: a route's writes, not its reads); empty or unset, every method. */
  methods?: string[];
  /** The next N matched requests are answered 503, whatever the rates (tests that need one exact failure). */
  failNext: number;
  /** The next N matched writes are handled, then lose their response, whatever the rates. */
  loseNext: number;
  /** The next N matched requests are answered the HTML page, unhandled, whatever the rates. */
  htmlNext: number;
  /** The next N matched requests answered 2xx have their body cut off, whatever the rates. */
  truncatedNext: number;
  /** The next N matched requests answered 2xx have a body of another shape, whatever the rates. */
  wrongShapeNext: number;
  /** The next N matched reads answered 2xx have an oversized body, whatever the rates. */
  oversizedNext: number;
  /**
   * Delayed deletes (the platform's `wait=false`): a deleted pipeline or transform is still
   * there, and still holds its source, destination and transforms, for this many more GETs of it.
   */
  deleteDelayReads: number;
}

export const DEFAULT_FAULTS: FaultSettings = {
  latencyMs: 0,
  rateLimit: 0,
  failRate: 0,
  dropRate: 0,
  lostResponseRate: 0,
  htmlRate: 0,
  truncatedRate: 0,
  wrongShapeRate: 0,
  oversizedRate: 0,
  oversizedBytes: 64 * 1024 * 1024 + 1,
  seed: undefined,
  routes: ["/"],
  failNext: 0,
  loseNext: 0,
  htmlNext: 0,
  truncatedNext: 0,
  wrongShapeNext: 0,
  oversizedNext: 0,
  deleteDelayReads: 0,
};

/** The settings that are shares (0..1) of matched requests. */
const SHARES = ["failRate", "dropRate", "lostResponseRate", "htmlRate", "truncatedRate", "wrongShapeRate", "oversizedRate"] as const;
/** The `...Next` settings: counts of requests a fault takes whatever the shares. */
const NEXTS = ["failNext", "loseNext", "htmlNext", "truncatedNext", "wrongShapeNext", "oversizedNext"] as const;
/** The settings that count requests (non-negative integers). */
const COUNTS = [...NEXTS, "deleteDelayReads"] as const;

/**
 * Every fault off: no share, count, latency or rate limit (seed, routes and delayed deletes are
 * kept). What a test reads the API with when it judges a run, and sets again after one.
 */
export const FAULTS_OFF: Readonly<Partial<FaultSettings>> = Object.freeze({
  latencyMs: 0,
  rateLimit: 0,
  ...Object.fromEntries([...SHARES, ...NEXTS].map((name) => [name, 0])),
});

/** How a handled request's 2xx answer is garbled (see FaultInjector.garble). */
export type Garble = "truncated" | "wrongShape" | "oversized";

export type FaultDecision =
  | { kind: "none" }
  | { kind: "drop" }
  | { kind: "fail" }
  | { kind: "html" }
  | { kind: "rate_limited"; retryAfterSeconds: number };

/** mulberry32: tiny, fast and good enough to spread fault decisions evenly. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One share's decisions: a draw from the PRNG each time (so the sequence stays the seed's), and
 * a counted guarantee on top. If none of the first ceil(1/share) decisions after the faults were
 * set has fired, the last of them fires anyway. After the first firing the draws alone decide, so
 * the long-run share stays the share; only a dry spell at the start is cut short.
 */
class Share {
  private decisions = 0;
  private fired = false;

  /** Starts the count again (the faults were set). */
  restart(): void {
    this.decisions = 0;
    this.fired = false;
  }

  decide(share: number, random: () => number): boolean {
    if (share <= 0) return false;
    const drawn = random() < share;
    this.decisions += 1;
    const due = !this.fired && this.decisions >= Math.ceil(1 / share);
    if (drawn || due) this.fired = true;
    return drawn || due;
  }
}

export function validateFaults(settings: FaultSettings): void {
  for (const name of SHARES) {
    const v = settings[name];
    if (!Number.isFinite(v) || v < 0 || v > 1) throw new RangeError(`${name} must be between 0 and 1, got ${v}`);
  }
  if (!Number.isFinite(settings.latencyMs) || settings.latencyMs < 0) {
    throw new RangeError(`latencyMs must be a non-negative number, got ${settings.latencyMs}`);
  }
  if (!Number.isFinite(settings.rateLimit) || settings.rateLimit < 0) {
    throw new RangeError(`rateLimit must be a non-negative number, got ${settings.rateLimit}`);
  }
  for (const name of COUNTS) {
    const v = settings[name];
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer, got ${v}`);
  }
  // An oversized body is still one JSON array (`[{}]` at the least).
  if (!Number.isInteger(settings.oversizedBytes) || settings.oversizedBytes < 4) {
    throw new RangeError(`oversizedBytes must be an integer of at least 4, got ${settings.oversizedBytes}`);
  }
  if (settings.seed !== undefined && !Number.isInteger(settings.seed)) {
    throw new RangeError(`seed must be an integer, got ${settings.seed}`);
  }
  if (!Array.isArray(settings.routes) || settings.routes.some((r) => typeof r !== "string" || !r.startsWith("/"))) {
    throw new RangeError("routes must be a list of path prefixes starting with '/'");
  }
}

export class FaultInjector {
  private current: FaultSettings;
  private random: () => number;
  private tokens = 0;
  private lastRefillMs = 0;
  private readonly fail = new Share();
  private readonly drop = new Share();
  private readonly lost = new Share();
  private readonly html = new Share();
  private readonly truncated = new Share();
  private readonly wrongShape = new Share();
  private readonly oversized = new Share();

  constructor(
    initial: Partial<FaultSettings>,
    private readonly clock: () => number,
  ) {
    this.current = { ...DEFAULT_FAULTS, ...initial, routes: [...(initial.routes ?? DEFAULT_FAULTS.routes)] };
    validateFaults(this.current);
    this.random = mulberry32(this.current.seed ?? randomInt(0, 2 ** 31));
    this.resetBucket();
  }

  get settings(): FaultSettings {
    return { ...this.current, routes: [...this.current.routes] };
  }

  /**
   * Changes faults at runtime; a new seed restarts the PRNG, a new rate refills the bucket, and
   * every call starts the counted guarantee of each share again (see Share).
   */
  update(patch: Partial<FaultSettings>): void {
    const next: FaultSettings = { ...this.current, ...patch, routes: [...(patch.routes ?? this.current.routes)] };
    validateFaults(next);
    const reseed = "seed" in patch;
    const rateChanged = next.rateLimit !== this.current.rateLimit;
    this.current = next;
    if (reseed) this.random = mulberry32(next.seed ?? randomInt(0, 2 ** 31));
    if (rateChanged) this.resetBucket();
    this.restartShares();
  }

  private restartShares(): void {
    for (const share of [this.fail, this.drop, this.lost, this.html, this.truncated, this.wrongShape, this.oversized]) share.restart();
  }

  applies(path: string, method: string): boolean {
    if (this.current.methods && this.current.methods.length > 0 && !this.current.methods.includes(method)) return false;
    return this.current.routes.some((prefix) => {
      if (prefix === "/") return true;
      const base = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix;
      return path === base || path.startsWith(`${base}/`);
    });
  }

  get deleteDelayReads(): number {
    return this.current.deleteDelayReads;
  }

  get latencyMs(): number {
    return this.current.latencyMs;
  }

  get oversizedBytes(): number {
    return this.current.oversizedBytes;
  }

  /**
   * Decide the fate of one matched request. Draws from the PRNG only for enabled faults; a request
   * dropped or rate-limited is no decision of the fail share, one failed none of the HTML share.
   */
  decide(): FaultDecision {
    const s = this.current;
    if (this.takeNext("failNext")) return { kind: "fail" };
    if (this.takeNext("htmlNext")) return { kind: "html" };
    if (this.drop.decide(s.dropRate, this.random)) return { kind: "drop" };
    if (s.rateLimit > 0) {
      const wait = this.takeToken();
      if (wait > 0) return { kind: "rate_limited", retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    }
    if (this.fail.decide(s.failRate, this.random)) return { kind: "fail" };
    if (this.html.decide(s.htmlRate, this.random)) return { kind: "html" };
    return { kind: "none" };
  }

  /**
   * Whether a request that met no other fault, was handled and answered 2xx has that answer
   * garbled, and how. Only such answers are decisions of these shares: an error answer is sent as
   * it is. Oversized bodies are for reads only (see FaultSettings.oversizedRate).
   */
  garble(method: string): Garble | undefined {
    const s = this.current;
    const read = method === "GET";
    if (this.takeNext("truncatedNext")) return "truncated";
    if (this.takeNext("wrongShapeNext")) return "wrongShape";
    if (read && this.takeNext("oversizedNext")) return "oversized";
    if (this.truncated.decide(s.truncatedRate, this.random)) return "truncated";
    if (this.wrongShape.decide(s.wrongShapeRate, this.random)) return "wrongShape";
    if (read && this.oversized.decide(s.oversizedRate, this.random)) return "oversized";
    return undefined;
  }

  /**
   * Whether a request that passed every other fault is handled and then loses its response:
   * the client cannot know whether its call took effect, the case a create must survive.
   */
  loseResponse(): boolean {
    if (this.takeNext("loseNext")) return true;
    return this.lost.decide(this.current.lostResponseRate, this.random);
  }

  /** Takes one of a `...Next` count: true when there was one left. */
  private takeNext(count: (typeof NEXTS)[number]): boolean {
    if (this.current[count] <= 0) return false;
    this.current[count]--;
    return true;
  }

  private resetBucket(): void {
    this.tokens = this.capacity();
    this.lastRefillMs = this.clock();
  }

  private capacity(): number {
    return Math.max(1, this.current.rateLimit);
  }

  /** Token bucket: returns 0 when a token was taken, else the milliseconds until one is available. */
  private takeToken(): number {
    const now = this.clock();
    const rate = this.current.rateLimit;
    const elapsed = Math.max(0, now - this.lastRefillMs);
    this.tokens = Math.min(this.capacity(), this.tokens + (elapsed / 1000) * rate);
    this.lastRefillMs = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return ((1 - this.tokens) / rate) * 1000;
  }
}
