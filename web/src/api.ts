import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../clients/typescript/src/schema.js';

export type Schemas = components['schemas'];

/** The API's error object (spec: Errors), kept whole so a page can show the message beside the field. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

const state: { csrf: string | null; onUnauthenticated: () => void } = {
  csrf: null,
  onUnauthenticated: () => {},
};

/** The session routes return the CSRF token every state-changing cookie request must echo. */
export function setCsrfToken(token: string | null): void {
  state.csrf = token;
}

/** Called when the session ran out mid-use, so the app can show the sign-in page without a reload. */
export function onUnauthenticated(handler: () => void): void {
  state.onUnauthenticated = handler;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const csrf: Middleware = {
  onRequest({ request }) {
    if (!SAFE.has(request.method) && state.csrf) request.headers.set('x-csrf-token', state.csrf);
    return request;
  },
  onResponse({ response, request }) {
    // Signing in itself answers 401 for a wrong password: only a lost session sends the user back.
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/v1/session')) {
      state.onUnauthenticated();
    }
    return response;
  },
};

/** The generated, typed client of the /v1 API (cookie session; same origin). */
export const api = createClient<paths>({ baseUrl: '/v1', credentials: 'same-origin' });
api.use(csrf);

/** An ApiError from a failed openapi-fetch answer (or a network failure). */
export function toApiError(response: Response | undefined, error: unknown): ApiError {
  const body = error as { error?: { code?: string; message?: string; details?: Record<string, unknown> } };
  if (body?.error?.code) {
    return new ApiError(response?.status ?? 0, body.error.code, body.error.message ?? '', body.error.details);
  }
  return new ApiError(
    response?.status ?? 0,
    'network_error',
    `Request failed (${response?.status ?? 'network'}).`,
  );
}

/** Unwraps an openapi-fetch result: the data, or a thrown ApiError with the API's message. */
export async function call<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await pending;
  } catch (err) {
    throw new ApiError(0, 'network_error', `Could not reach Quire: ${(err as Error).message}`);
  }
  if (result.error !== undefined || !result.response.ok) throw toApiError(result.response, result.error);
  return result.data as T;
}

/**
 * A call to a route the generated client does not know yet (an extension added since the client was last
 * generated): same cookie, CSRF token and errors as `call(api…)`.
 */
export async function callRoute<T>(method: 'GET' | 'DELETE', path: string): Promise<T> {
  let response: Response;
  try {
    const headers: Record<string, string> = {};
    if (!SAFE.has(method) && state.csrf) headers['x-csrf-token'] = state.csrf;
    response = await fetch(`/v1${path}`, { method, credentials: 'same-origin', headers });
  } catch (err) {
    throw new ApiError(0, 'network_error', `Could not reach Quire: ${(err as Error).message}`);
  }
  if (response.status === 401) state.onUnauthenticated();
  const body: unknown = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  if (!response.ok) throw toApiError(response, body);
  return body as T;
}

/** Session object of the dashboard routes (OpenAPI tag Dashboard). */
export type Session = Schemas['Session'];

export function canManage(session: Session): boolean {
  return session.role === 'owner' || session.role === 'admin';
}

/** Bytes as "12.3 KB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Saves bytes through a temporary link (the browser's own download). */
export function download(bytes: Blob, filename: string): void {
  const url = URL.createObjectURL(bytes);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A chosen file as standard base64 (the API takes uploads as JSON). */
export function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file.'));
    reader.readAsDataURL(file);
  });
}
