/** The REST client: Bearer token, JSON bodies, failures as ApiError with the server's code. */

export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly code: string,
    message: string,
    /** HTTP status; 0 when the server could not be reached */
    readonly status: number,
  ) {
    super(message)
  }
  get unauthorized(): boolean {
    return this.status === 401
  }
}

export class ApiClient {
  constructor(private readonly token: string) {}

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path)
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('POST', path, body)
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let res: Response
    try {
      res = await fetch(`/api/${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    } catch (e) {
      throw new ApiError('PS_UNREACHABLE', `server unreachable: ${(e as Error).message}`, 0)
    }
    const json = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } }
    if (!res.ok)
      throw new ApiError(
        json.error?.code ?? `HTTP_${res.status}`,
        json.error ? `${json.error.code}: ${json.error.message}` : `HTTP ${res.status}`,
        res.status,
      )
    return json as T
  }
}
