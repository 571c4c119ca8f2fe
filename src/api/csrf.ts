/** The session's CSRF token: set from the sign-in or environment answer, else read from the meta tag. */
let token: string | null = null;

export const INVALID_TOKEN = 'invalid-authenticity-token';

export function setCsrfToken(value: string | null): void {
  token = value;
}

export function getCsrfToken(): string {
  if (token) return token;
  const meta = typeof document !== 'undefined' ? document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]') : null;
  return meta?.content || INVALID_TOKEN;
}
