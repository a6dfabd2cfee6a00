import { isIP } from "node:net";

/**
 * An IPv4 or IPv6 address, or a CIDR range of one: the platform's rule for a Kafka user's
 * whitelist entries, which the product checks before any call and the emulator enforces.
 */
export function isIpOrCidr(entry: string): boolean {
  const slash = entry.indexOf("/");
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash < 0) return true;
  const bits = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}
