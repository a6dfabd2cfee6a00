import type { ConnectorKind } from "./catalogue.js";
import {
  configComparisonSchema,
  connectorSchema,
  currentTuning,
  isNotFound,
  paginatedSchema,
  withBudget,
  Background,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_MAX_PAGES,
  DEFAULT_PAGE_SIZE,
  DEFAULT_RESOURCE_TIMEOUT_MS,
  type CdcClient,
  type ConfigComparison,
  type DestinationConnector,
  type Paginated,
} from "./client/index.js";

/**
 * Where a live check reads the API. `connector` is undefined when the object is gone;
 * `comparison` (destinations' config history against the original) likewise.
 */
export interface LiveReader {
  connector(kind: ConnectorKind, id: string): Promise<DestinationConnector | undefined>;
  comparison(id: string): Promise<ConfigComparison | undefined>;
}

/**
 * Who reads: the engine asks each resource at most once per pass, diff and read being separate
 * passes; an update that may need no write asks again right after its diff.
 */
export type Consumer = "diff" | "read" | "drift" | "update";

export interface LiveCacheOptions {
  /**
   * Fetch the config comparisons of listed destinations before they are asked for. The engine
   * diffs one resource at a time, so without this each destination's diff waits a round trip.
   */
  prefetchComparisons: boolean;
  /** Concurrent prefetches; the client's limiter bounds the requests in flight anyway. */
  prefetchWorkers?: number;
  /**
   * Read-ahead: each destination asked about has its comparison and those of the next this
   * many (in listing order, counting only destinations this client could have made) fetched.
   */
  prefetchAhead?: number;
  /** Each shared fetch runs under a retry budget of its own (not the budget of whoever started it). */
  budgetMs?: number;
}

/** The listing of one kind, as of `seq`. */
interface Listing {
  seq: number;
  items: Promise<Map<string, DestinationConnector>>;
}

interface ComparisonEntry {
  seq: number;
  /** undefined: the destination is gone. */
  result: Promise<ConfigComparison | undefined>;
  /** A read-ahead's: waits behind requests someone needs, until someone needs this one. */
  background?: Background;
}

const DEFAULT_PREFETCH_AHEAD = 100;

/**
 * What the API holds about sources and destinations, read in bulk and shared by every live
 * check of a run: one paginated list per kind (pages of 100, fetched concurrently) instead of
 * one GET per resource, and destinations' config comparisons fetched concurrently ahead of the
 * diffs that need them.
 *
 * Freshness is tracked with one counter: every fetch and every write of ours takes the next
 * number. Data may answer for an object only if it was fetched after our last write to that
 * object, and after the data this consumer last read about it: a second question about the
 * same object (a later pass, a test that edits in between) goes to the API again.
 */
export class LiveCache {
  #seq = 0;
  readonly #listings = new Map<ConnectorKind, Listing>();
  readonly #comparisons = new Map<string, ComparisonEntry>();
  /** Listed destinations this client could have made, in listing order, and where each is in it. */
  #order: string[] | undefined;
  readonly #position = new Map<string, number>();
  /** Destinations asked about before their listing arrived: read-ahead starts from them once it does. */
  readonly #askedBeforeListing: string[] = [];
  /** `kind:id` → seq of our last write. */
  readonly #writes = new Map<string, number>();
  /** `consumer:what:id` → seq of the data that consumer last read. */
  readonly #read = new Map<string, number>();
  readonly #queue: string[] = [];
  readonly #queued = new Set<string>();
  #workers = 0;
  readonly #options: Required<LiveCacheOptions>;

  constructor(
    private readonly api: CdcClient,
    options: LiveCacheOptions,
  ) {
    this.#options = {
      prefetchWorkers: DEFAULT_MAX_CONCURRENCY,
      prefetchAhead: DEFAULT_PREFETCH_AHEAD,
      budgetMs: DEFAULT_RESOURCE_TIMEOUT_MS,
      ...options,
    };
  }

  /** A reader for one consumer. */
  reader(consumer: Consumer): LiveReader {
    return {
      connector: (kind, id) => this.connector(consumer, kind, id),
      comparison: (id) => this.comparison(consumer, id),
    };
  }

  /** Our own write (create, update, transition, delete) of this object: data fetched before it is stale. */
  wrote(kind: ConnectorKind, id: string): void {
    this.#writes.set(`${kind}:${id}`, ++this.#seq);
    const entry = this.#comparisons.get(id);
    if (entry && kind === "destination") this.#drop(id, entry);
  }

  async connector(consumer: Consumer, kind: ConnectorKind, id: string): Promise<DestinationConnector | undefined> {
    const readKey = `${consumer}:${kind}:${id}`;
    const listing = this.#listings.get(kind) ?? this.#list(kind);
    // A destination's check asks for its object and its comparison together: reading ahead here
    // serves both, once.
    if (kind === "destination") this.#readAhead(id);
    if (listing.seq > this.#floor(kind, id, readKey)) {
      const items = await listing.items;
      // Checked again after the wait: a write of ours may have finished meanwhile.
      const item = listing.seq > this.#floor(kind, id, readKey) ? items.get(id) : undefined;
      if (item) {
        this.#read.set(readKey, listing.seq);
        return item;
      }
      // Not listed: deleted, or skipped because the pages shifted while they were read (an
      // object deleted on an earlier page moves the rest forward). One GET tells which.
    }
    const seq = ++this.#seq;
    const schema = connectorSchema(kind);
    const item = await this.api.findOne(`/${kind}s/{id}`, schema, { params: { id } });
    this.#read.set(readKey, seq);
    return item;
  }

  async comparison(consumer: Consumer, id: string): Promise<ConfigComparison | undefined> {
    const readKey = `${consumer}:comparison:${id}`;
    const shared = this.#comparisons.get(id);
    if (shared && shared.seq > this.#floor("destination", id, readKey)) {
      shared.background?.wanted();
      const result = await shared.result.catch((): typeof FAILED => FAILED);
      // Checked again after the wait: a write of ours may have finished meanwhile. A failed
      // shared fetch is retried below as this caller's own.
      if (result !== FAILED && this.#comparisons.get(id) === shared && shared.seq > this.#floor("destination", id, readKey)) {
        this.#read.set(readKey, shared.seq);
        return result;
      }
    }
    const own = this.#fetchComparison(id);
    this.#comparisons.set(id, own);
    const result = await own.result;
    this.#read.set(readKey, own.seq);
    return result;
  }

  /** The newest seq a piece of data must beat to answer: our last write, and what this consumer last read. */
  #floor(kind: ConnectorKind, id: string, readKey: string): number {
    return Math.max(this.#writes.get(`${kind}:${id}`) ?? 0, this.#read.get(readKey) ?? 0);
  }

  #list(kind: ConnectorKind): Listing {
    const listing: Listing = {
      seq: ++this.#seq,
      items: withBudget(`listing the ${kind}s`, this.#options.budgetMs, () => listAll(this.api, kind)),
    };
    this.#listings.set(kind, listing);
    listing.items.then(
      (items) => {
        if (kind === "destination" && this.#options.prefetchComparisons) this.#ordered(items);
      },
      () => {
        // Dropped, so that the next check lists again; the callers waiting on it get the error.
        if (this.#listings.get(kind) === listing) this.#listings.delete(kind);
      },
    );
    return listing;
  }

  #fetchComparison(id: string, background?: Background): ComparisonEntry {
    const result = withBudget("the destination config comparison", this.#options.budgetMs, () =>
      this.api.get("/destinations/{id}/config-history/compare-to-original", { params: { id }, schema: configComparisonSchema, background }),
    ).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    const entry: ComparisonEntry = { seq: ++this.#seq, result, background };
    // Forgotten on failure, so that it does not answer later.
    result.catch(() => this.#drop(id, entry));
    return entry;
  }

  /**
   * Keeps the order of the listed destinations that this client made (or that carry no
   * `created_from`): those are the ones a stack can hold, adoption aside (an adopted one is
   * fetched when asked for). Read-ahead walks this order.
   */
  #ordered(items: Map<string, DestinationConnector>): void {
    const order: string[] = [];
    this.#position.clear();
    for (const [id, item] of items) {
      if (item.created_from && item.created_from !== this.api.createdFrom) continue;
      this.#position.set(id, order.length);
      order.push(id);
    }
    this.#order = order;
    for (const id of this.#askedBeforeListing.splice(0)) this.#readAhead(id);
  }

  /**
   * Queues the comparisons of this destination and of the `prefetchAhead` after it in listing
   * order. The engine asks in the program's order (a preview) or the state's (a refresh); both
   * follow the order of creation closely, which is the listing's, so what comes next is
   * fetched before it is asked for. Reading ahead of each destination asked about, rather
   * than fetching everything listed, bounds the calls spent on other stacks' destinations in a
   * shared tenant: only those within `prefetchAhead` after one of this stack's are fetched, or,
   * when no more than `prefetchAhead` + 1 are listed at all, all of them.
   */
  #readAhead(id: string): void {
    if (!this.#options.prefetchComparisons) return;
    const order = this.#order;
    if (!order) {
      // The listing is on its way (or about to be: a comparison may be asked for first).
      this.#askedBeforeListing.push(id);
      return;
    }
    const at = this.#position.get(id);
    // Not listed as one this client could have made (adopted, or created since): nothing to read ahead from.
    if (at === undefined) return;
    // When every destination this client could have made fits in the read-ahead, all of them
    // are fetched, those listed before this one last: the engine's order then costs no round
    // trips, and the calls spent on another stack's destinations stay within `prefetchAhead`.
    const ahead = this.#options.prefetchAhead;
    const all = order.length <= ahead + 1;
    const count = all ? order.length : Math.min(order.length - at, ahead + 1);
    // Walked in place (from `at`, wrapping round when all fit): this runs at every destination
    // check, so it allocates nothing.
    for (let k = 0; k < count; k++) {
      const next = order[(at + k) % order.length]!;
      if (!this.#queued.has(next) && !this.#current(next)) {
        this.#queued.add(next);
        this.#queue.push(next);
      }
    }
    this.#pump();
  }

  /** A comparison fetched after our last write to that destination (in flight or done). */
  #current(id: string): boolean {
    const entry = this.#comparisons.get(id);
    return entry !== undefined && entry.seq > (this.#writes.get(`destination:${id}`) ?? 0);
  }

  #pump(): void {
    while (this.#workers < this.#options.prefetchWorkers && this.#queue.length > 0) {
      const id = this.#queue.shift()!;
      this.#queued.delete(id);
      if (this.#current(id)) continue;
      const entry = this.#fetchComparison(id, new Background());
      this.#comparisons.set(id, entry);
      this.#workers++;
      const done = () => {
        this.#workers--;
        this.#pump();
      };
      entry.result.then(done, done);
    }
  }

  #drop(id: string, entry: ComparisonEntry): void {
    if (this.#comparisons.get(id) === entry) this.#comparisons.delete(id);
  }
}

const FAILED: unique symbol = Symbol("failed");

/**
 * Every object of a kind. Page 1 says how many there are; the other pages are then fetched at
 * once (the client's limiter bounds them), and any growth since is followed page by page.
 */
export async function listAll(api: CdcClient, kind: ConnectorKind): Promise<Map<string, DestinationConnector>> {
  const envelope = paginatedSchema(connectorSchema(kind));
  const path = `/${kind}s`;
  const pageSize = DEFAULT_PAGE_SIZE;
  const page = (n: number) => api.get(path, { query: { page: n, page_size: pageSize }, schema: envelope }) as Promise<Paginated<DestinationConnector>>;
  const items = new Map<string, DestinationConnector>();
  const add = (p: Paginated<DestinationConnector>) => {
    for (const item of p.result) if (item.id) items.set(item.id, item);
  };
  const more = (p: Paginated<DestinationConnector>) => p.result.length > 0 && (p.has_next === true || ((p.has_next === null || p.has_next === undefined) && p.result.length >= pageSize));

  const first = await page(1);
  add(first);
  let last = first;
  let next = 2;
  if (typeof first.total === "number" && more(first)) {
    const pages = Math.min(Math.ceil(first.total / pageSize), DEFAULT_MAX_PAGES);
    const rest = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => page(i + 2)));
    for (const p of rest) add(p);
    last = rest[rest.length - 1] ?? first;
    next = pages + 1;
  }
  for (; more(last); next++) {
    if (next > DEFAULT_MAX_PAGES) throw new Error(`listing ${path} stopped after ${DEFAULT_MAX_PAGES} pages: the server kept reporting more results`);
    last = await page(next);
    add(last);
  }
  return items;
}

// One cache per client, for the life of the process: the provider process lives for one
// Pulumi command, so this is "the run's" view of the API (like the HTTP pool and the token).
const caches = new WeakMap<CdcClient, LiveCache>();

export function liveCache(api: CdcClient): LiveCache {
  let cache = caches.get(api);
  if (!cache) {
    const { maxConcurrency, resourceTimeoutMs } = currentTuning();
    cache = new LiveCache(api, { prefetchComparisons: true, prefetchWorkers: maxConcurrency, budgetMs: resourceTimeoutMs });
    caches.set(api, cache);
  }
  return cache;
}
