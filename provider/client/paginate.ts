import type { Paginated } from "./schemas.js";

export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_MAX_PAGES = 1_000;

export interface PaginateOptions {
  /** Items per page; the API caps it at 100. */
  pageSize?: number;
  /** Guard against a server that never says "no more": fail instead of looping. */
  maxPages?: number;
}

/**
 * Page through `fetchPage(page, pageSize)` until `has_next` is false, a page is empty, or (when
 * the server leaves `has_next` out) a page comes back short. `total` is not trusted to stop: the
 * platform's own client stops on a short page only, and a lookup by name that stopped early on a
 * wrong `total` would miss the object and create a duplicate.
 */
export async function* paginatePages<T>(
  fetchPage: (page: number, pageSize: number) => Promise<Paginated<T>>,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  for (let page = 1; page <= maxPages; page++) {
    const envelope = await fetchPage(page, pageSize);
    const items = envelope.result;
    if (items.length === 0) return;
    for (const item of items) yield item;
    if (envelope.has_next === false) return;
    if (envelope.has_next !== true && items.length < pageSize) return;
  }
  throw new Error(`pagination stopped after ${maxPages} pages: the server kept reporting more results`);
}
