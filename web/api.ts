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

  /** GET a file and hand it to the browser as a download named `filename`. */
  async download(path: string, filename: string): Promise<void> {
    let res: Response
    try {
      res = await fetch(`/api/${path}`, { headers: { authorization: `Bearer ${this.token}` } })
    } catch (e) {
      throw new ApiError('PS_UNREACHABLE', `server unreachable: ${(e as Error).message}`, 0)
    }
    if (!res.ok) {
      const json = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } }
      throw new ApiError(
        json.error?.code ?? `HTTP_${res.status}`,
        json.error ? `${json.error.code}: ${json.error.message}` : `HTTP ${res.status}`,
        res.status,
      )
    }
    const url = URL.createObjectURL(await res.blob())
    const a = document.createElement('a')
    a.href = url
    a.download = filename
    a.click()
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
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
