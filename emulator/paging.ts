/** The API's list envelope, `{result, page, page_size, total, has_next}`. */
export function envelope<T>(items: T[], page: number, pageSize: number, total: number) {
  return { result: items, page, page_size: pageSize, total, has_next: page * pageSize < total };
}

/** One page (1-based) of `all`, rendered, in the list envelope. */
export function pageOf<T, R>(all: readonly T[], page: number, pageSize: number, render: (item: T) => R) {
  const start = (page - 1) * pageSize;
  return envelope(all.slice(start, start + pageSize).map(render), page, pageSize, all.length);
}
