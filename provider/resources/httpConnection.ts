import { failuresFromZod } from "../check.js";
import { anyJsonSchema, httpConnectionSchema, type CdcClient, type HttpConnection } from "../client/index.js";
import { client } from "../context.js";
import type { ImportListing } from "../kinds/imported.js";
import { HTTP_CONNECTION } from "../kinds/httpConnection.js";
import { liveOutputs } from "../kinds/outputs.js";
import type { DriftFindings, RecoverContext, Recovered } from "../kinds/spec.js";
import { reportDrift } from "../drift.js";
import { containsUnknown, MASK, sameMembers } from "../normalize.js";
import { newSalt, sameSecret, secretDigest } from "../secret-digest.js";
import { createNamed } from "./createNamed.js";
import { plainString, recoverAmongNamed, type NamedList } from "./recovered.js";
import { unlessGone } from "./gone.js";
import { listIfServed } from "./listing.js";
import { resolveName } from "./naming.js";

export interface HttpConnectionInputs {
  logicalName?: string;
  autonamed?: boolean;
  name: string;
  url: string;
  /** Header name → value; values are Pulumi secrets (the SDK marks them). */
  headers: Record<string, string>;
  /** The id of an existing HTTP connection to take over instead of creating one. */
  adoptId?: string;
}

/** Outputs carry no header value (see secret-digest.ts): names, and a digest per value. */
export interface HttpConnectionOutputs extends Omit<HttpConnectionInputs, "headers"> {
  /** The header names the API holds, for drift and for readers of the stack. */
  headerNames: string[];
  /** Header name → keyed digest of the value the program set. */
  headerDigests: Record<string, string>;
  secretSalt: string;
  createdFrom: string;
}



const path = "/agents/connections/http/{id}";

function outputs(live: HttpConnection, inputs: HttpConnectionInputs, salt: string, digests?: Record<string, string>): HttpConnectionOutputs {
  const { headers, ...rest } = inputs;
  return {
    ...(liveOutputs(HTTP_CONNECTION, live) as Pick<HttpConnectionOutputs, "createdFrom">),
    ...rest,
    headerNames: Object.keys(live.headers).sort(),
    headerDigests: digests ?? Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, secretDigest(salt, v)])),
    secretSalt: salt,
  };
}

/** Whether the program's value of a header is the one the stack recorded. */
function unchanged(olds: Partial<HttpConnectionOutputs>, name: string, value: string): boolean {
  return sameSecret(olds.secretSalt, olds.headerDigests?.[name], value);
}

/**
 * A header `pulumi import` took in has an empty digest: Pulumi never saw its value (the API
 * never shows it), so the program's value is taken as the stored one until Pulumi next writes
 * the connection, which sends it and records its digest.
 */
function neverSeen(olds: Partial<HttpConnectionOutputs>, name: string): boolean {
  return olds.headerDigests?.[name] === "";
}

/**
 * The PATCH headers object by the API's merge rule: a header whose value the program did not
 * change is sent as the mask (the stored encrypted value is kept), a changed or new one with
 * its value, and one removed from the program is left out (and so removed).
 */
export function headerPatch(same: (name: string, value: string) => boolean, news: Record<string, string>, liveNames: readonly string[]): Record<string, string> {
  const live = new Set(liveNames);
  return Object.fromEntries(Object.entries(news).map(([name, value]) => [name, same(name, value) && live.has(name) ? MASK : value]));
}

export function getLive(api: CdcClient, id: string): Promise<HttpConnection | undefined> {
  return unlessGone(() => api.get(path, { params: { id }, schema: httpConnectionSchema }));
}

/** What changed on an HTTP connection outside Pulumi ([] when nothing): the one rule for diff and `pulumi-cdc drift`. */
export function httpConnectionFindings(live: HttpConnection | undefined, recorded: Partial<HttpConnectionOutputs>): string[] {
  if (!live) return ["was deleted: run `pulumi refresh` to drop it from the stack, then `pulumi up` to create it again"];
  const findings: string[] = [];
  const known = Object.keys(recorded.headerDigests ?? {});
  if (live.url !== recorded.url) findings.push(`url was changed to ${live.url}`);
  if (live.name && live.name !== recorded.name) findings.push(`was renamed to "${live.name}"`);
  const liveNames = Object.keys(live.headers).sort();
  const added = liveNames.filter((n) => !known.includes(n));
  const removed = known.filter((n) => !liveNames.includes(n));
  if (added.length > 0) findings.push(`header${added.length > 1 ? "s" : ""} added: ${added.join(", ")}`);
  if (removed.length > 0) findings.push(`header${removed.length > 1 ? "s" : ""} removed: ${removed.join(", ")}`);
  return findings;
}

/** HTTP connections of agents: headers are secrets the provider never reads back. */
/** Where HTTP connections are listed, and their ids. */
const LISTED: NamedList<typeof httpConnectionSchema> = { listPath: "/agents/connections/http", schema: httpConnectionSchema, idOf: (c) => c.connection_id };

export class HttpConnectionProvider {
  /** `pulumi-cdc import`: every HTTP connection, or none when the API has no list of them. */
  listForImport(api: CdcClient, listing: ImportListing): Promise<HttpConnection[]> {
    return listIfServed(api, "/agents/connections/http", httpConnectionSchema, HTTP_CONNECTION.plural, listing.note);
  }

  /** `pulumi-cdc drift`: whether the object is gone, and what changed outside Pulumi, in the sentences a plain preview prints. */
  async findDrift(api: CdcClient, id: string, recorded: Record<string, unknown>): Promise<DriftFindings> {
    const live = await getLive(api, id);
    return { gone: live === undefined, findings: httpConnectionFindings(live, recorded) };
  }

  async check(olds: Partial<HttpConnectionInputs>, news: Record<string, unknown>) {
    const parsed = HTTP_CONNECTION.inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const input = parsed.data;
    const inputs: HttpConnectionInputs = {
      ...(input.logicalName !== undefined ? { logicalName: input.logicalName } : {}),
      ...resolveName(olds, input, false),
      url: input.url,
      headers: input.headers ?? {},
      ...(input.adoptId !== undefined ? { adoptId: input.adoptId } : {}),
    };
    return { inputs, failures: [] };
  }

  async diff(id: string, olds: HttpConnectionOutputs, news: HttpConnectionInputs) {
    const known = Object.keys(olds.headerDigests ?? {});
    const changed =
      olds.name !== news.name ||
      olds.url !== news.url ||
      !sameMembers(known, Object.keys(news.headers)) ||
      Object.entries(news.headers).some(([k, v]) => !neverSeen(olds, k) && !unchanged(olds, k, v));
    let drifted = false;
    if (!containsUnknown(news)) {
      const findings = httpConnectionFindings(await getLive(client(), id), olds);
      drifted = findings.length > 0;
      reportDrift(`HTTP connection "${olds.name}" (${id})`, findings);
    }
    return { changes: changed || drifted, replaces: [] as string[] };
  }

  /** `pulumi-cdc recover`: the connection a killed run's create made: the one of its name and url Pulumi made that no stack holds. */
  findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    const url = plainString(inputs.url);
    return recoverAmongNamed(api, context, {
      ...LISTED,
      kind: HTTP_CONNECTION,
      name: inputs.name,
      differs: (found) => (url !== undefined && found.url !== url ? `its url is ${found.url}` : undefined),
    });
  }

  async create(inputs: HttpConnectionInputs) {
    const api = client();
    if (inputs.adoptId) return this.adopt(api, inputs);
    const live = await createNamed({
      api,
      what: `HTTP connection "${inputs.name}"`,
      ...LISTED,
      name: inputs.name,
      send: () =>
        api.post("/agents/connections/http", {
          body: { name: inputs.name, url: inputs.url, headers: inputs.headers, created_from: api.createdFrom },
          schema: httpConnectionSchema,
        }),
      differs: (found) => (found.url !== inputs.url ? `its url is ${found.url}` : undefined),
    });
    return { id: live.connection_id, outs: outputs(live, inputs, newSalt()) };
  }

  async read(id: string, props: Partial<HttpConnectionOutputs>) {
    const live = await getLive(client(), id);
    if (!live) return { id: "", props: {} };
    // The API never shows a header value, and the outputs hold only digests: a header the stack
    // knows keeps its digest; one added outside Pulumi has none, so the next update drops it
    // unless the program sets it. The inputs record every value as the mask. An import (no
    // recorded url) knows every live header with an empty digest: its value was never seen.
    const liveNames = Object.keys(live.headers);
    const importing = props.url === undefined;
    const known = props.headerDigests ?? {};
    const digests = Object.fromEntries(liveNames.flatMap((n) => (importing ? [[n, ""]] : typeof known[n] === "string" ? [[n, known[n]]] : [])));
    const realigned: HttpConnectionInputs = {
      ...(props.logicalName !== undefined ? { logicalName: props.logicalName } : {}),
      ...(props.autonamed !== undefined ? { autonamed: props.autonamed } : {}),
      name: live.name ?? props.name ?? "",
      url: live.url ?? props.url ?? "",
      headers: Object.fromEntries(liveNames.map((n) => [n, MASK])),
    };
    const outs = outputs(live, realigned, props.secretSalt ?? newSalt(), digests);
    if (importing && liveNames.length === 0) {
      // No headers is what a program that sets none gets: the imported code leaves them out.
      const { headers: _none, ...asProgram } = realigned;
      return { id, props: outs, inputs: asProgram };
    }
    return { id, props: outs, inputs: realigned };
  }

  async update(id: string, olds: HttpConnectionOutputs, news: HttpConnectionInputs) {
    const api = client();
    const live = await getLive(api, id);
    if (!live) {
      throw new Error(`HTTP connection "${news.name}" (${id}) no longer exists: it was deleted outside Pulumi. Run \`pulumi refresh\`, then \`pulumi up\` to create it again.`);
    }
    const updated = await api.patch(path, {
      params: { id },
      body: { name: news.name, url: news.url, headers: headerPatch((n, v) => unchanged(olds, n, v), news.headers, Object.keys(live.headers)) },
      schema: httpConnectionSchema,
      // It sets values (a header kept is sent as the mask, "keep the stored one"): sending it twice leaves what sending it once does.
      idempotent: true,
    });
    return { outs: outputs(updated, news, olds.secretSalt ?? newSalt()) };
  }

  async delete(id: string) {
    await unlessGone(() => client().delete(path, { params: { id }, schema: anyJsonSchema }));
  }

  /**
   * Takes over an existing HTTP connection. The API never shows a header value, so a header the
   * connection has is taken to hold the program's value (adoption never rewrites a secret it
   * cannot see; the stack records the digest of the program's value, and a later change of it
   * in the program is an update). Nothing is written when the name, url and header names
   * match; otherwise one PATCH sets them, keeping the stored values of the headers it has.
   */
  private async adopt(api: CdcClient, inputs: HttpConnectionInputs) {
    const id = inputs.adoptId!;
    const live = await getLive(api, id);
    if (!live) throw new Error(`adoptId: there is no HTTP connection with id "${id}" to adopt; check the id, or remove adoptId to create a new one`);
    const salt = newSalt();
    if (httpAdoptionChanges(live, inputs).length === 0) return { id, outs: outputs(live, inputs, salt) };
    const updated = await api.patch(path, {
      params: { id },
      body: { name: inputs.name, url: inputs.url, headers: headerPatch(() => true, inputs.headers, Object.keys(live.headers)) },
      schema: httpConnectionSchema,
      idempotent: true,
    });
    return { id, outs: outputs(updated, inputs, salt) };
  }
}

/** What adopting `live` would change (header values aside: the API never shows them); [] when nothing. */
export function httpAdoptionChanges(live: HttpConnection, inputs: HttpConnectionInputs): string[] {
  return [
    ...((live.name ?? "") !== inputs.name ? ["name"] : []),
    ...((live.url ?? "") !== inputs.url ? ["url"] : []),
    ...(!sameMembers(Object.keys(live.headers), Object.keys(inputs.headers)) ? ["headers"] : []),
  ];
}
