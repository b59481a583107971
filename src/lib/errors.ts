// The one error type of the API and the helpers that throw it with the spec's wording.

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? 'Error'
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string | string[],
  ) {
    super(Array.isArray(messages) ? messages.join('; ') : messages)
  }

  toBody() {
    return { statusCode: this.status, message: this.messages, error: statusText(this.status) }
  }
}

export const badRequest = (message: string | string[]) => new ApiError(400, message)
export const unauthorized = (message = 'Unauthorized') => new ApiError(401, message)
export const forbidden = (message = 'Forbidden resource') => new ApiError(403, message)
export const notFound = (message: string) => new ApiError(404, message)
export const conflict = (message: string) => new ApiError(409, message)
export const payloadTooLarge = (maxBytes: number) =>
  new ApiError(413, `Request body must not be larger than ${maxBytes} bytes`)
export const tooManyRequests = () => new ApiError(429, 'Too Many Requests')
