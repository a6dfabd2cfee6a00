import type { AddressInfo } from "node:net";
import { BindingWrites, type BindingGathering } from "./binding-writes.js";
import type { EmulatorContext } from "./context.js";
import { FaultInjector, type FaultSettings } from "./faults.js";
import { Holds, type RequestHold } from "./holds.js";
import { resolveOptions, type EmulatorOptions } from "./options.js";
import { ensureSystemTags } from "./routes/tags.js";
import { buildServer } from "./server.js";
import { cloneStats, emptyStats, type EmulatorStats } from "./stats.js";
import { Store } from "./store.js";
import { ensureTenants } from "./tokens.js";

export interface RunningEmulator {
  /** Base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Every route it serves, as `"METHOD /route/:pattern"` (as `stats().requests` names them): what a test of every route walks. */
  readonly routes: readonly string[];
  /** Bootstrap credential (admin role). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** The first tenant's id: the bootstrap credential's (24 lowercase hex characters on a new state). */
  readonly tenantId: string;
  /**
   * The tenant a credential belongs to (a bootstrap one of `tenants`, or any other), for a test
   * that names it with `cdc:adminTenantId`; undefined for an unknown client id.
   */
  tenantOf(clientId: string): { tenantId: string; serviceId: string } | undefined;
  /** Closes the server; idempotent. State of a `statePath` emulator is already on disk. */
  stop(): Promise<void>;
  /** A snapshot of the request counters. */
  stats(): EmulatorStats;
  resetStats(): void;
  /** Changes fault injection at runtime; fields not given keep their value. */
  setFaults(patch: Partial<FaultSettings>): void;
  getFaults(): FaultSettings;
  /**
   * Holds requests back by count, for a test that must stop a client halfway without timing it:
   * requests of `routes` (`"METHOD /route/:pattern"`, as `stats().requests` names them) are
   * handled until `after` of them have been answered 2xx; the next ones wait, unanswered, until
   * `release()`, which closes their connections unhandled. `reached` resolves once `after` are
   * answered and one more is waiting. `stop()` releases every hold. `WRITES` holds every write
   * the tenant keeps (any POST, PUT, PATCH or DELETE but a token's): "kill after the k-th write".
   */
  hold(routes: string | readonly string[], after: number): RequestHold;
  /**
   * Arranges a lost update of a topic binding by count: the next `count` changes of a binding
   * (PUT or DELETE `/topics/{topic_id}/destinations/{destination_id}`) each read the binding, then
   * wait until all `count` have read, then write what they computed in the order they came, so
   * the later writes drop the earlier ones' topics, as two concurrent changes of one binding do on
   * the platform. `reached` resolves once all have read; `release()` (and `stop()`) lets waiting
   * ones write at once.
   */
  gatherBindingWrites(count: number): BindingGathering;
  /**
   * What the API stores but never shows, for tests that must see a secret survive an update
   * (an HTTP connection's header values, unsealed); undefined when there is no such connection.
   */
  storedHttpHeaders(connectionId: string): Record<string, string> | undefined;
  /**
   * A connector's secret config value as stored, unsealed: what a connection made with it would
   * authenticate with. Undefined when there is no such connector or it holds no such secret.
   */
  storedSecret(kind: "sources" | "destinations", id: string, key: string): string | undefined;
}

export async function startEmulator(options: Partial<EmulatorOptions> = {}): Promise<RunningEmulator> {
  const resolved = resolveOptions(options);
  const store = Store.open(resolved.statePath, resolved.clock);
  const stats = emptyStats();
  const faults = new FaultInjector(resolved.faults, resolved.clock);
  const holds = new Holds();
  const bindingWrites = new BindingWrites(resolved.bindingChangeMs);
  const ctx: EmulatorContext = { store, stats, faults, holds, bindingWrites, options: resolved };

  await ensureTenants(store, resolved);
  for (const tenant of store.tenants()) store.within(tenant, () => ensureSystemTags(store));
  store.flush();

  const { app, routes } = buildServer(ctx);
  await app.listen({ port: resolved.port, host: resolved.host });
  const port = (app.server.address() as AddressInfo).port;

  let stopping: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    routes,
    clientId: resolved.clientId,
    clientSecret: resolved.clientSecret,
    stop: () => {
      holds.releaseAll();
      bindingWrites.releaseAll();
      return (stopping ??= app.close().then(() => store.flush()));
    },
    stats: () => cloneStats(stats),
    resetStats: () => Object.assign(stats, emptyStats()),
    setFaults: (patch) => faults.update(patch),
    getFaults: () => faults.settings,
    hold: (routes, after) => holds.place(routes, after),
    tenantId: store.root.tenant_id,
    tenantOf: (clientId) => {
      const tenant = store.findCredential(clientId)?.tenant;
      return tenant && { tenantId: tenant.tenant_id, serviceId: tenant.service_id };
    },
    gatherBindingWrites: (count) => bindingWrites.gather(count),
    storedHttpHeaders: (id) => {
      const record = store.tenants().find((t) => t.http_connections[id])?.http_connections[id];
      if (!record) return undefined;
      return Object.fromEntries(Object.entries(record.headers).map(([k, v]) => [k, store.vault.open(v)]));
    },
    storedSecret: (kind, id, key) => {
      const sealed = store.tenants().find((t) => t[kind][id])?.[kind][id]?.secrets[key];
      return sealed === undefined ? undefined : store.vault.open(sealed);
    },
  };
}

export type { EmulatorOptions, TenantSeed } from "./options.js";
export { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET, DEFAULT_PORT, DEFAULT_TOKEN_TTL_SECONDS } from "./options.js";
export { FAULTS_OFF, type FaultSettings } from "./faults.js";
export { WRITES, type RequestHold } from "./holds.js";
export type { BindingGathering } from "./binding-writes.js";
export type { EmulatorStats } from "./stats.js";
export {
  CATALOGUE,
  DESTINATION_CONNECTORS,
  MASK,
  SOURCE_CONNECTORS,
  findConnector,
  type ConfigKeySpec,
  type ConfigValueType,
  type ConnectorKind,
  type ConnectorSpec,
} from "./catalogue.js";
export { ROLES, PERMISSIONS, type Permission, type RoleDefinition } from "./roles.js";
export { CONNECTOR_STATUSES, type ConnectorStatus } from "./store.js";
export { CREATED_FROM, type CreatedFrom, type ValidationDetail } from "./validation.js";
