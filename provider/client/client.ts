import { setTimeout as delay } from "node:timers/promises";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import type { DebugLogger } from "./debug.js";
import { isNotFound } from "./errors.js";
import { HttpCore, type Query } from "./http.js";
import { Semaphore, DEFAULT_MAX_CONCURRENCY, type Background } from "./limiter.js";
import { paginatePages, type PaginateOptions } from "./paginate.js";
import { retryPolicy, type RetryPolicy } from "./retry.js";
import { paginatedSchema, type Paginated } from "./schemas.js";
import type { CdcSettings } from "./settings.js";
import { TokenManager } from "./token.js";
import { createAgent, DEFAULT_TIMEOUTS, type Timeouts } from "./transport.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./tuning.js";

export interface RequestOptions<S extends z.ZodType = z.ZodType> {
  query?: Query;
  /**
   * Every answer is checked against it before it is believed; a body not JSON or not of it is a
   * ResponseShapeError. `anyJsonSchema` where the call's answer is not read (a delete, a pause).
   */
  schema: S;
  /**
   * Values for `{name}` placeholders in the path, URL-encoded here. Using them keeps the
   * request counters and logs keyed by template (`GET /sources/{id}`) instead of by id.
   */
  params?: Record<string, string | number>;
  headers?: Record<string, string>;
  /** Override the method's retry rule: true only when repeating the call is harmless. */
  idempotent?: boolean;
  /**
   * Sent at most once: no failure is retried, not even a 429 or a refused connection (only the
   * replay after a 401, which the server refused unread). For a write whose outcome must surface
   * as it is, such as a revision-guarded PUT that a replay would turn into a false conflict.
   */
  once?: boolean;
  /** Fetched ahead of need (read-ahead): requests someone waits for take the free slots first, until `wanted()`. */
  background?: Background;
}

export interface BodyRequestOptions<S extends z.ZodType = z.ZodType> extends RequestOptions<S> {
  /** JSON body. Never appears in errors or logs, only its key names. */
  body?: unknown;
}

export interface CdcClientOptions {
  settings: CdcSettings;
  /** Defaults to a new keep-alive agent owned (and closed) by this client. */
  dispatcher?: Dispatcher;
  /** Defaults to a new limiter of `maxConcurrency` slots. */
  limiter?: Semaphore;
  maxConcurrency?: number;
  retry?: Partial<RetryPolicy>;
  timeouts?: Partial<Timeouts>;
  /** The longest answer read (DEFAULT_MAX_RESPONSE_BYTES unless set). */
  maxResponseBytes?: number;
  /** Injectable for tests: backoff waits go through it. */
  sleep?: (ms: number) => Promise<void>;
  /** Injectable for tests: backoff jitter, in [0, 1). */
  random?: () => number;
  /** Injectable for tests: the clock that decides token expiry. */
  now?: () => number;
  debug?: DebugLogger;
}

const USER_AGENT = `pulumi-cdc (node ${process.version})`;

/** The admin scope's headers, spelled as the vendor's provider sends them. */
export const ADMIN_TENANT_HEADER = "X-Admin-Tenant-Id";
export const ADMIN_SERVICE_HEADER = "X-Admin-Service-Id";

/** What every request of these settings carries: the admin scope, when there is one (the vendor's provider sends it on the token request too). */
function scopeHeaders(settings: CdcSettings): Record<string, string> {
  return {
    ...(settings.adminTenantId ? { [ADMIN_TENANT_HEADER]: settings.adminTenantId } : {}),
    ...(settings.adminServiceId ? { [ADMIN_SERVICE_HEADER]: settings.adminServiceId } : {}),
  };
}

/** The REST client resource providers go through. Obtain the shared one with `getClient()`. */
export class CdcClient {
  readonly apiUrl: string;
  readonly clientId: string | undefined;
  /** The value to stamp as `created_from` on creates. */
  readonly createdFrom: string;
  readonly tokens: TokenManager;
  readonly #core: HttpCore;
  readonly #ownedAgent: Dispatcher | undefined;

  constructor(options: CdcClientOptions) {
    const { settings } = options;
    this.apiUrl = settings.apiUrl;
    this.clientId = settings.clientId;
    this.createdFrom = settings.createdFrom;
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#ownedAgent = options.dispatcher ? undefined : createAgent(timeouts);
    const now = options.now ?? Date.now;
    this.#core = new HttpCore({
      baseUrl: settings.apiUrl,
      dispatcher: options.dispatcher ?? (this.#ownedAgent as Dispatcher),
      limiter: options.limiter ?? new Semaphore(options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY),
      policy: retryPolicy(options.retry),
      timeouts,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      sleep: options.sleep ?? ((ms) => delay(ms)),
      random: options.random ?? Math.random,
      now,
      debug: options.debug,
      userAgent: USER_AGENT,
      headers: scopeHeaders(settings),
    });
    this.tokens = new TokenManager({
      core: this.#core,
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      accessToken: settings.accessToken,
      now,
      debug: options.debug,
    });
  }

  /** The retry policy every call of this client follows (create recovery follows it too). */
  get retryPolicy(): RetryPolicy {
    return this.#core.opts.policy;
  }

  get<S extends z.ZodType>(path: string, options: RequestOptions<S>): Promise<z.output<S>> {
    return this.request("GET", path, options);
  }

  post<S extends z.ZodType>(path: string, options: BodyRequestOptions<S>): Promise<z.output<S>> {
    return this.request("POST", path, options);
  }

  put<S extends z.ZodType>(path: string, options: BodyRequestOptions<S>): Promise<z.output<S>> {
    return this.request("PUT", path, options);
  }

  patch<S extends z.ZodType>(path: string, options: BodyRequestOptions<S>): Promise<z.output<S>> {
    return this.request("PATCH", path, options);
  }

  delete<S extends z.ZodType>(path: string, options: RequestOptions<S>): Promise<z.output<S>> {
    return this.request("DELETE", path, options);
  }

  request<S extends z.ZodType>(method: string, path: string, options: BodyRequestOptions<S>): Promise<z.output<S>> {
    return this.#core.execute({
      method,
      path: expandPath(path, options.params),
      template: path,
      query: options.query,
      body: options.body,
      schema: options.schema,
      headers: options.headers,
      idempotent: options.idempotent,
      once: options.once,
      background: options.background,
      auth: this.tokens,
    });
  }

  /**
   * Every item of a paginated list (`{result, page, page_size, total, has_next}`), fetched
   * page by page (`page`, `page_size` = 100) as the caller iterates.
   */
  paginate<S extends z.ZodType>(
    path: string,
    query: Query | undefined,
    itemSchema: S,
    options: PaginateOptions & Pick<RequestOptions, "params"> = {},
  ): AsyncGenerator<z.output<S>, void, undefined> {
    const envelope = paginatedSchema(itemSchema);
    return paginatePages<z.output<S>>(
      (page, pageSize) =>
        this.get(path, { query: { ...query, page, page_size: pageSize }, schema: envelope, params: options.params }) as Promise<
          Paginated<z.output<S>>
        >,
      options,
    );
  }

  /** `paginate` collected into an array. */
  async listAll<S extends z.ZodType>(
    path: string,
    query: Query | undefined,
    itemSchema: S,
    options: PaginateOptions & Pick<RequestOptions, "params"> = {},
  ): Promise<Array<z.output<S>>> {
    const items: Array<z.output<S>> = [];
    for await (const item of this.paginate(path, query, itemSchema, options)) items.push(item);
    return items;
  }

  /**
   * The single item of an envelope response (`GET /sources/{id}`), or undefined when the
   * object is gone: a 404 or an empty `result` both mean "deleted".
   */
  async findOne<S extends z.ZodType>(path: string, itemSchema: S, options: Omit<RequestOptions, "schema"> = {}): Promise<z.output<S> | undefined> {
    try {
      const envelope = (await this.get(path, { ...options, schema: paginatedSchema(itemSchema) })) as Paginated<z.output<S>>;
      return envelope.result[0];
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Close the connection pool if this client created it (shared pools stay open). */
  async close(): Promise<void> {
    await this.#ownedAgent?.close();
  }
}

/** Fill `{name}` placeholders with URL-encoded values. */
export function expandPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === "") throw new Error(`missing value for path parameter {${name}} in ${path}`);
    return encodeURIComponent(String(value));
  });
}
