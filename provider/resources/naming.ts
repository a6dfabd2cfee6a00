import { randomBytes } from "node:crypto";

export interface NamedInputs {
  /** The Pulumi resource name: the base of an autoname. */
  logicalName?: string;
  name?: string;
  autonamed?: boolean;
}

/**
 * Autonaming as Pulumi users expect it: an explicit name is used as is; an unset name becomes
 * `<logical name>-<random suffix>`, kept stable across runs and renewed only on replacement
 * (so the replacement can be created before the original is deleted).
 */
export function resolveName(olds: NamedInputs, news: NamedInputs, replacing: boolean): { name: string; autonamed: boolean } {
  if (typeof news.name === "string" && news.name !== "") return { name: news.name, autonamed: false };
  if (olds.autonamed && typeof olds.name === "string" && olds.logicalName === news.logicalName && !replacing) {
    return { name: olds.name, autonamed: true };
  }
  return { name: `${autonameBase(news.logicalName)}-${randomBytes(4).toString("hex")}`, autonamed: true };
}

/** What an autoname of this Pulumi resource name starts with: `<base>-<8 hex>`. */
export function autonameBase(logicalName: string | undefined): string {
  return (logicalName ?? "cdc").replace(/[^A-Za-z0-9 _.-]/g, "-").slice(0, 240);
}
