export { providerInfo } from "./info.js";
export type { ProviderInfo } from "./info.js";
