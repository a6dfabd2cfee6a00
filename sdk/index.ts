export { providerInfo } from "../provider/info.js";
