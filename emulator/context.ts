import type { BindingWrites } from "./binding-writes.js";
import type { FaultInjector } from "./faults.js";
import type { Holds } from "./holds.js";
import type { EmulatorOptions } from "./options.js";
import type { Permission } from "./roles.js";
import type { EmulatorStats } from "./stats.js";
import type { Store, TenantData } from "./store.js";

/** What every route module needs; passed explicitly instead of decorating the Fastify instance. */
export interface EmulatorContext {
  store: Store;
  stats: EmulatorStats;
  faults: FaultInjector;
  /** Requests held back by count (RunningEmulator.hold). */
  holds: Holds;
  /** The read-modify-write of a topic binding (RunningEmulator.gatherBindingWrites). */
  bindingWrites: BindingWrites;
  options: EmulatorOptions;
}

/** The caller behind a bearer token. */
export interface Principal {
  clientId: string;
  /** The tenant the credential belongs to. */
  tenantId: string;
  /** A platform operator's credential (`operators`): it may act on another tenant with `X-Admin-Tenant-Id`. */
  operator: boolean;
  permissions: Set<string>;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Route reachable without a bearer token (the token routes). */
    public?: boolean;
    /** Permission a caller's roles must grant. Routes without one only need a valid token. */
    permission?: Permission;
  }
  interface FastifyRequest {
    principal?: Principal;
    /** The tenant the request acts on (admin-scope.ts); unset on the token routes. */
    tenant?: TenantData;
  }
}
