import type { Paginated } from "./schemas.js";

export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_MAX_PAGES = 1_000;

export interface PaginateOptions {
  /** Items per page; the API caps it at 100. */
  pageSize?: number;
  /** Guard against a server that never says "no more": fail instead of looping. */
  maxPages?: number;
}

/** Page through `fetchPage(page, pageSize)` until `has_next` is false, a page is empty, or `total` is reached. */
export async function* paginatePages<T>(
  fetchPage: (page: number, pageSize: number) => Promise<Paginated<T>>,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  let seen = 0;
  for (let page = 1; page <= maxPages; page++) {
    const envelope = await fetchPage(page, pageSize);
    const items = envelope.result;
    if (items.length === 0) return;
    for (const item of items) yield item;
    seen += items.length;
    if (envelope.has_next === false) return;
    if (envelope.has_next !== true) {
      // Servers that leave has_next null: fall back to total, then to a short page.
      if (typeof envelope.total === "number" && seen >= envelope.total) return;
      if (items.length < pageSize) return;
    }
  }
  throw new Error(`pagination stopped after ${maxPages} pages: the server kept reporting more results`);
}
