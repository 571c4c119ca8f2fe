import { getCsrfToken } from './csrf';

/** An answer outside 200/201: carries the status and the director's message (field `error` or `base`). */
/** The sign-out call: the one request sent while signing out. */
export const SIGN_OUT_PATH = '/users/sign_out';

export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public body: unknown,
  ) {
    super(message);
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  params?: Record<string, string | number | boolean | undefined | null | (string | number)[]>;
  body?: unknown;
  /** Marks polls so they do not keep the session alive. */
  background?: boolean;
  /** Sends the CSRF token on a GET too (a spec GET that changes state, e.g. /jobs/{id}/cancel.json). */
  csrf?: boolean;
  /** 'json' (default) parses the answer; 'text' returns it raw. */
  parse?: 'json' | 'text';
  signal?: AbortSignal;
}

/** Where requests go; '' means the page's own origin. A terminal runner sets it to the director URL. */
let baseUrl = '';
let extraHeaders: Record<string, string> = {};
export function configureHttp(opts: { baseUrl?: string; headers?: Record<string, string> }): void {
  if (opts.baseUrl !== undefined) baseUrl = opts.baseUrl.replace(/\/$/, '');
  if (opts.headers) extraHeaders = opts.headers;
}

/** The full address of a director path (with the configured base URL and query). */
export const apiUrl = (path: string, params?: RequestOptions['params']) => `${baseUrl}${path}${buildQuery(params)}`;

/** The headers every call sends (CSRF for non-GET). */
export function standardHeaders(method: Method, opts: Pick<RequestOptions, 'parse' | 'background' | 'csrf'> = {}): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Requested-With': 'XMLHttpRequest',
    Accept: opts.parse === 'text' ? 'text/plain, */*' : 'application/json',
    ...extraHeaders,
  };
  if (method !== 'GET' || opts.csrf) headers['X-CSRF-Token'] = getCsrfToken();
  if (opts.background) headers['X-Background-Task'] = 'true';
  return headers;
}

export function buildQuery(params: RequestOptions['params']): string {
  if (!params) return '';
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) v.forEach((item) => qs.append(k.endsWith('[]') ? k : `${k}[]`, String(item)));
    else qs.append(k, String(v));
  }
  const s = qs.toString();
  return s ? `?${s}` : '';
}

export function messageOf(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const key of ['error', 'base', 'message']) {
      const v = b[key];
      if (typeof v === 'string' && v) return v;
      if (Array.isArray(v) && typeof v[0] === 'string') return v.join(' ');
    }
  }
  if (typeof body === 'string' && body && body.length < 300) return body;
  return status === 0 ? 'The director could not be reached.' : `Request failed (${status})`;
}

/**
 * The shared request helper (spec: legacy request helper): sends X-Requested-With, the CSRF token, a
 * content type and a background-task marker; 200 and 201 are success; JSON is parsed unless told not.
 */
/**
 * Set while the session is signing out: no new request is sent (a poll firing between the sign-out
 * and the page leaving would only be answered 401), except the sign-out itself.
 */
let signingOut = false;
export function setSigningOut(on: boolean): void {
  signingOut = on;
}

export async function request<T = unknown>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
  if (signingOut && path !== SIGN_OUT_PATH) throw new DOMException('Signing out.', 'AbortError');
  const headers = standardHeaders(method, opts);
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData || opts.body instanceof URLSearchParams) body = opts.body;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(apiUrl(path, opts.params), { method, headers, body, credentials: 'same-origin', signal: opts.signal });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, 'The director could not be reached.', null);
  }
  const text = await res.text();
  let parsed: unknown = text;
  if (opts.parse !== 'text' && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (res.status !== 200 && res.status !== 201) throw new ApiError(res.status, messageOf(res.status, parsed), parsed);
  return parsed as T;
}

export const http = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, { ...opts, body }),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, { ...opts, body }),
  patch: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, { ...opts, body }),
  delete: <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
};
