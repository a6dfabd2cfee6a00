import { randomUUID } from "node:crypto";
import fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { actingTenant } from "./admin-scope.js";
import type { EmulatorContext } from "./context.js";
import { ApiError, forbidden } from "./errors.js";
import { answerMaintenancePage, garbledAnswer } from "./garble.js";
import { registerAgentRoutes } from "./routes/agents.js";
import { registerAuthRoutes } from "./routes/auth.js";
import { registerConnectorRoutes } from "./routes/connectors.js";
import { registerKafkaUserRoutes } from "./routes/kafka-users.js";
import { registerLogRoutes } from "./routes/logs.js";
import { registerPipelineRoutes } from "./routes/pipelines.js";
import { registerTopicDestinationRoutes } from "./routes/topic-destinations.js";
import { registerTopicRoutes } from "./routes/topics.js";
import { registerTransformRoutes } from "./routes/transforms.js";
import { registerSmtChainRoutes } from "./routes/smt-chain.js";
import { registerTagRoutes } from "./routes/tags.js";
import { authenticate } from "./tokens.js";
import { InvalidJsonBody, RequestValidationError } from "./validation.js";

/** App wiring: request ids, fault injection, bearer auth, body parsing and the error format. */

const BODY_LIMIT_BYTES = 1024 * 1024;
const REQUEST_ID = /^[\x21-\x7e]{1,200}$/;

function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && REQUEST_ID.test(value) ? value : randomUUID();
}

class ForbiddenKeyError extends ApiError {
  constructor(key: string) {
    super(400, `Request body contains the forbidden key '${key}'`);
  }
}

/**
 * JSON bodies are parsed here rather than by Fastify so a decode failure becomes the API's
 * json_invalid 422 (and only on routes that read a body, as in the real service). A body that
 * is not JSON at all is passed through as text and fails validation as a non-object.
 */
function parseBody(contentType: string | undefined, text: string): unknown {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const isJson = type === "" || type === "application/json" || type.endsWith("+json");
  if (!isJson) return text;
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text, (key, value: unknown) => {
      // Keys like __proto__ would rewrite prototypes when merged into records; refuse them outright.
      if (key === "__proto__") throw new ForbiddenKeyError(key);
      return value;
    });
  } catch (error) {
    if (error instanceof ForbiddenKeyError) throw error;
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    const error_ = message.replace(/\s*\(line \d+ column \d+\)$/, "").replace(/ in JSON at position \d+/, "");
    return new InvalidJsonBody(position !== undefined ? Number(position) : text.length, error_);
  }
}

interface RoutePattern {
  method: string;
  regex: RegExp;
}

function patternToRegex(url: string): RegExp {
  const source = url
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/?$`);
}

function errorReply(reply: FastifyReply, status: number, detail: unknown, headers: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.code(status).send({ detail });
}

/** The app, and every route it serves as `"METHOD /route/:pattern"` (the keys of `stats().requests`). */
export function buildServer(ctx: EmulatorContext): { app: FastifyInstance; routes: readonly string[] } {
  const { store } = ctx;
  const app = fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    genReqId: (req) => requestIdFrom(req.headers["x-request-id"]),
  });

  const patterns: RoutePattern[] = [];
  const routes: string[] = [];
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      patterns.push({ method: String(method), regex: patternToRegex(route.url) });
      routes.push(`${String(method)} ${route.url}`);
    }
    // Each handler runs, to its end, in the tenant its request acts on: `store.data` is that tenant's.
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      const tenant = request.tenant;
      return tenant ? store.within(tenant, () => handler.call(this, request, reply)) : handler.call(this, request, reply);
    };
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (request, body, done) => {
    try {
      done(null, parseBody(request.headers["content-type"], body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    const route = countRequest(ctx, request);
    // Held first: a held request waits before the faults, so none of it runs once the hold is reached.
    if (!(await ctx.holds.enter(route, request, reply))) {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    await injectFaults(ctx, request, reply);
    if (reply.sent) return;
    const config = request.routeOptions.config;
    if (request.is404 || config.public) return;
    const principal = authenticate(store, ctx.options, request.headers.authorization);
    const tenant = actingTenant(store, principal, request.headers);
    if (config.permission && !principal.permissions.has(config.permission)) {
      throw forbidden(`Not enough permissions: this operation requires '${config.permission}'`);
    }
    request.principal = principal;
    request.tenant = tenant;
  });

  app.addHook("onSend", async (request, reply, payload) => {
    reply.header("x-request-id", request.id);
    try {
      store.flush();
    } catch (error) {
      process.stderr.write(`pulumi-cdc emulator: failed to persist state: ${(error as Error).message}\n`);
      reply.code(500).header("content-type", "application/json; charset=utf-8");
      ctx.holds.answered(request, 500);
      return JSON.stringify({ detail: "Failed to persist state" });
    }
    ctx.holds.answered(request, reply.statusCode);
    if (responsesToLose.has(request)) {
      ctx.stats.faults.lost += 1;
      request.raw.socket.destroy();
      return payload;
    }
    // Garbled after the store and the holds saw it: the request took effect, only its answer is lost to the client.
    if (garbleable.has(request) && reply.statusCode >= 200 && reply.statusCode < 300) return garbledAnswer(ctx, request.method, reply, payload);
    return payload;
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof RequestValidationError) return reply.code(422).send({ detail: error.details });
    if (error instanceof ApiError) return errorReply(reply, error.statusCode, error.detail, error.headers);
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return errorReply(reply, 413, "Request body too large");
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) return errorReply(reply, status, error.message);
    process.stderr.write(`pulumi-cdc emulator: internal error: ${error.stack ?? error.message}\n`);
    return errorReply(reply, 500, "Internal Server Error");
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0]!;
    const allowed = [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method))];
    if (allowed.length > 0) return errorReply(reply, 405, "Method Not Allowed", { allow: allowed.join(", ") });
    return errorReply(reply, 404, "Not Found");
  });

  registerAuthRoutes(app, ctx);
  registerConnectorRoutes(app, ctx, "source");
  registerConnectorRoutes(app, ctx, "destination");
  registerTagRoutes(app, ctx);
  registerAgentRoutes(app, ctx);
  registerLogRoutes(app, ctx);
  registerPipelineRoutes(app, ctx);
  registerTransformRoutes(app, ctx);
  registerTopicDestinationRoutes(app, ctx);
  registerTopicRoutes(app, ctx);
  registerSmtChainRoutes(app, ctx);
  registerKafkaUserRoutes(app, ctx);

  return { app, routes };
}

/** Counts the request under its `"METHOD /route/:pattern"` key, which it returns. */
function countRequest(ctx: EmulatorContext, request: FastifyRequest): string {
  const { stats } = ctx;
  const route = request.is404 ? "<unmatched>" : (request.routeOptions.url ?? "<unmatched>");
  const key = `${request.method} ${route}`;
  stats.total += 1;
  stats.requests[key] = (stats.requests[key] ?? 0) + 1;
  if (key === "POST /auth/access-token") stats.tokenRequests.accessToken += 1;
  if (key === "POST /auth/access-token/refresh") stats.tokenRequests.refresh += 1;
  return key;
}

async function injectFaults(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { faults, stats } = ctx;
  const path = request.url.split("?")[0]!;
  if (!faults.applies(path, request.method)) return;
  if (faults.latencyMs > 0) {
    stats.faults.delayed += 1;
    await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
  }
  const decision = faults.decide();
  switch (decision.kind) {
    case "drop":
      stats.faults.dropped += 1;
      reply.hijack();
      request.raw.socket.destroy();
      return;
    case "rate_limited":
      stats.faults.rateLimited += 1;
      throw new ApiError(429, "Too Many Requests: rate limit exceeded", { "retry-after": String(decision.retryAfterSeconds) });
    case "fail":
      stats.faults.failed += 1;
      throw new ApiError(503, "503 Service Unavailable: the service is temporarily unavailable, try again");
    case "html":
      stats.faults.html += 1;
      answerMaintenancePage(reply, request.id);
      return;
    case "none":
      // Only writes: a read whose answer is lost is just a dropped connection.
      if (request.method !== "GET" && faults.loseResponse()) responsesToLose.add(request);
      garbleable.add(request);
      return;
  }
}

/** Requests handled normally whose response is then withheld (see FaultInjector.loseResponse). */
const responsesToLose = new WeakSet<FastifyRequest>();
/** Requests that met no fault on the way in: their 2xx answer may be garbled on the way out (FaultInjector.garble). */
const garbleable = new WeakSet<FastifyRequest>();
