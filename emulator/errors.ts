/** Every non-validation error of the API is `{detail: "message"}` with a status code. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const notFound = (detail: string) => new ApiError(404, detail);
export const conflict = (detail: string) => new ApiError(409, detail);
export const unauthorized = (detail: string) => new ApiError(401, detail, { "www-authenticate": "Bearer" });
export const forbidden = (detail: string) => new ApiError(403, detail);
