import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import type { EmulatorContext } from "./context.js";

/**
 * The garbled answers of the fault injector (faults.ts): what a proxy, a load balancer or a
 * deployment gone wrong sends in the API's place. Each is a whole HTTP answer with status 200, so
 * a client that believes status codes alone believes it; none is a broken connection.
 */

/** A load balancer's page while the service behind it is away: no JSON at all. */
export const MAINTENANCE_PAGE =
  "<!DOCTYPE html>\n<html><head><title>Down for maintenance</title></head>" +
  "<body><h1>We'll be back soon</h1><p>The service is undergoing scheduled maintenance.</p></body></html>\n";

/** Answers the request as the load balancer would: the app (its hooks, its handler) never sees it. */
export function answerMaintenancePage(reply: FastifyReply, requestId: string): void {
  reply.hijack();
  reply.raw.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "content-length": Buffer.byteLength(MAINTENANCE_PAGE),
    "x-request-id": requestId,
  });
  reply.raw.end(MAINTENANCE_PAGE);
}

/**
 * A handled request's 2xx answer, garbled when the faults say so. Only a JSON object or array is
 * a decision (every 2xx answer of the API is one), so the counted guarantee of each share is never
 * spent on an answer it could not garble.
 */
export function garbledAnswer(ctx: EmulatorContext, method: string, reply: FastifyReply, payload: unknown): unknown {
  if (typeof payload !== "string" || !/^[[{]/.test(payload)) return payload;
  const kind = ctx.faults.garble(method);
  if (kind === undefined) return payload;
  ctx.stats.faults[kind] += 1;
  if (kind === "truncated") return truncated(payload);
  if (kind === "wrongShape") return ofAnotherShape(payload);
  const bytes = ctx.faults.oversizedBytes;
  reply.header("content-length", String(bytes));
  return oversizedBody(bytes);
}

/**
 * The first half of a JSON object or array. A strict prefix of one never parses (its last bracket
 * is gone), and Fastify sets content-length from what is returned here, so the client reads every
 * byte announced and then fails to parse it.
 */
export function truncated(json: string): string {
  return json.slice(0, Math.max(1, Math.floor(json.length / 2)));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A listing's items, each stripped of every field; undefined when `value` is no such listing. */
function stripped(value: unknown): Array<Record<string, never>> | undefined {
  return Array.isArray(value) && value.length > 0 && value.every(isObject) ? value.map(() => ({})) : undefined;
}

/**
 * Well-formed JSON of another shape than the answer's: a listing (a top-level list, or the
 * `result` or `tags` list of an envelope) keeps its items, each without its fields, so a client
 * that drops what it cannot read sees a listing shrink; anything else becomes
 * `{"result": "maintenance"}`. An empty listing is not stripped: empty is a true answer.
 */
export function ofAnotherShape(json: string): string {
  const data: unknown = JSON.parse(json);
  const list = stripped(data);
  if (list) return JSON.stringify(list);
  if (isObject(data)) {
    for (const key of ["result", "tags"]) {
      const items = stripped(data[key]);
      if (items) return JSON.stringify({ ...data, [key]: items });
    }
  }
  return JSON.stringify({ result: "maintenance" });
}

/** One padding item of the oversized body: 64 bytes. */
const PAD_ITEM = `{"pad":"${"x".repeat(53)}"},`;
/** 64 KiB of them: the body is made of these, never allocated whole. */
const PAD_CHUNK = Buffer.from(PAD_ITEM.repeat(1024));

/**
 * A JSON array exactly `bytes` long (`[` items `{}` spaces `]`), made a chunk at a time as the
 * client reads it: a 64 MiB answer costs the emulator 64 KiB. When the client stops reading and
 * closes, Fastify destroys the stream and the rest is never made.
 */
export function oversizedBody(bytes: number): Readable {
  function* chunks(): Generator<Buffer> {
    yield Buffer.from("[");
    let left = bytes - 4;
    while (left >= PAD_CHUNK.length) {
      yield PAD_CHUNK;
      left -= PAD_CHUNK.length;
    }
    const items = Math.floor(left / PAD_ITEM.length);
    yield Buffer.from(`${PAD_ITEM.repeat(items)}{}${" ".repeat(left - items * PAD_ITEM.length)}]`);
  }
  return Readable.from(chunks(), { objectMode: false });
}
