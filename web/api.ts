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

  /** GET a text body (an export read by the page itself). */
  async text(path: string): Promise<string> {
    return (await this.request('GET', path)).text()
  }

  /** GET a file and hand it to the browser as a download named `filename`. */
  async download(path: string, filename: string): Promise<void> {
    const res = await this.request('GET', path)
    const url = URL.createObjectURL(await res.blob())
    const a = document.createElement('a')
    a.href = url
    a.download = filename
    a.click()
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await this.request(method, path, body)
    return (await res.json().catch(() => ({}))) as T
  }

  /** One request with the token; any failure is an ApiError with the server's code when it sent one. */
  private async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
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
    if (res.ok) return res
    const json = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } }
    throw new ApiError(
      json.error?.code ?? `HTTP_${res.status}`,
      json.error ? `${json.error.code}: ${json.error.message}` : `HTTP ${res.status}`,
      res.status,
    )
  }
}
