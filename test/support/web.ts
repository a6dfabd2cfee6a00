import { isWrite } from "../../emulator/holds.js";
import type { RunningEmulator } from "../../emulator/index.js";
import type { z } from "zod";
import { anyJsonSchema, CdcClient, destinationEnvelopeSchema, sourceEnvelopeSchema, tagPageSchema, type Tag, type BodyRequestOptions, type CdcClientOptions } from "../../provider/client/index.js";

type ConsoleOptions<S extends z.ZodType> = Omit<BodyRequestOptions<S>, "schema"> & { schema?: S };

/**
 * The product's client as a test's hands and eyes on the emulator: a person in the web console, a
 * seed script. It reads any JSON answer unless told a schema (the product itself must always
 * give one); a body that is not JSON still fails, as in the product.
 */
export class ConsoleClient extends CdcClient {
  constructor(options: CdcClientOptions) {
    super(options);
  }
  override get<S extends z.ZodType = typeof anyJsonSchema>(path: string, options: ConsoleOptions<S> = {}): Promise<z.output<S>> {
    return this.request("GET", path, options);
  }
  override post<S extends z.ZodType = typeof anyJsonSchema>(path: string, options: ConsoleOptions<S> = {}): Promise<z.output<S>> {
    return this.request("POST", path, options);
  }
  override put<S extends z.ZodType = typeof anyJsonSchema>(path: string, options: ConsoleOptions<S> = {}): Promise<z.output<S>> {
    return this.request("PUT", path, options);
  }
  override patch<S extends z.ZodType = typeof anyJsonSchema>(path: string, options: ConsoleOptions<S> = {}): Promise<z.output<S>> {
    return this.request("PATCH", path, options);
  }
  override delete<S extends z.ZodType = typeof anyJsonSchema>(path: string, options: ConsoleOptions<S> = {}): Promise<z.output<S>> {
    return this.request("DELETE", path, options);
  }
  override request<S extends z.ZodType = typeof anyJsonSchema>(method: string, path: string, options: ConsoleOptions<S> = {}): Promise<z.output<S>> {
    return super.request(method, path, { ...options, schema: (options.schema ?? anyJsonSchema) as S });
  }
}

/** The requests the emulator has answered that change the tenant, by route (token requests aside, as its holds): {} when none. */
export function apiWrites(emulator: Pick<RunningEmulator, "stats">): Record<string, number> {
  return Object.fromEntries(Object.entries(emulator.stats().requests).filter(([route, n]) => n > 0 && isWrite(route)));
}

/**
 * A client that acts as a person in the web console: its writes are stamped `created_from: web`,
 * so tests can make changes outside Pulumi, the drift the provider must find.
 */
export function webClient(api: { url: string; clientId: string; clientSecret: string }): ConsoleClient {
  return new ConsoleClient({ settings: { apiUrl: api.url, clientId: api.clientId, clientSecret: api.clientSecret, createdFrom: "web" } });
}

/**
 * An edit in the web console: the connector's form as the API shows it (secrets masked, which
 * keeps them), a few fields changed, saved back whole, as the console saves it.
 */
export async function consoleEdit(
  web: ConsoleClient,
  kind: "source" | "destination",
  id: string,
  change: { name?: string; config?: Record<string, unknown> },
): Promise<void> {
  const schema = kind === "source" ? sourceEnvelopeSchema : destinationEnvelopeSchema;
  const live = (await web.get(`/${kind}s/{id}`, { params: { id }, schema })).result[0]!;
  await web.put(`/${kind}s/{id}`, {
    params: { id },
    body: { name: change.name ?? live.name, connector: live.connector, config: { ...live.config, ...change.config } },
  });
}

/** The tags of a `GET /tags` answer, read as the product reads them (every item a tag, or it throws). */
export function tagItems(body: unknown): Tag[] {
  return tagPageSchema.parse(body).result;
}
