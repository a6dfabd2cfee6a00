/** The object behind @pulumi/policy's unknown-checking proxy (the object itself when it is none): the proxy throws on reading an unknown value. */
export function target<T extends object>(props: T): T {
  return ((props as Record<string, unknown>)["__getSpecialProxyTarget"] as T | undefined) ?? props;
}
