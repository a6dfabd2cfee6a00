import { resolveSettings, resolveTuning, SETTING_KEYS, SettingsError, TUNING_SPECS } from "../provider/client/index.js";

/** Every `cdc:` setting the provider reads: connection settings and tuning. */
export const CONFIG_KEYS: readonly string[] = [...SETTING_KEYS.map((s) => s.config), ...Object.values(TUNING_SPECS).map((s) => s.config)];

/** Keys the engine itself puts among a provider's inputs. */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

/**
 * The provider's config as the core reads it (`cdc:apiUrl` ...): the provider inputs (`args`,
 * secrets already unwrapped), else the stack config the engine passes as variables
 * (`cdc:config:apiUrl` in the engine's older spelling). The `CDC_*` fallbacks are the core's.
 */
export function providerConfig(args: Record<string, unknown>, variables: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(variables)) out[key.replace(/^cdc:config:/, "cdc:")] = value;
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null || ENGINE_KEYS.has(key) || key.startsWith("__")) continue;
    out[`cdc:${key}`] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return out;
}

/** CheckConfig: unknown keys and bad values, named, before any resource runs. */
export function checkProviderConfig(news: Record<string, unknown>): Array<{ property: string; reason: string }> {
  const failures: Array<{ property: string; reason: string }> = [];
  const known = new Set(CONFIG_KEYS.map((k) => k.slice("cdc:".length)));
  for (const key of Object.keys(news)) {
    if (ENGINE_KEYS.has(key) || key.startsWith("__") || known.has(key)) continue;
    failures.push({ property: key, reason: `cdc:${key} is not a setting of pulumi-cdc; the settings are ${CONFIG_KEYS.join(", ")}` });
  }
  const config = providerConfig(news, {});
  for (const check of [() => resolveTuning(config), () => resolveSettings(config)]) {
    try {
      check();
    } catch (err) {
      if (!(err instanceof SettingsError)) throw err;
      const key = err.setting ?? CONFIG_KEYS.find((k) => err.message.includes(k)) ?? "cdc:apiUrl";
      failures.push({ property: key.slice("cdc:".length), reason: err.message });
    }
  }
  return failures;
}
