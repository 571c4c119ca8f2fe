import { http, setSigningOut, SIGN_OUT_PATH } from './http';
import { setCsrfToken } from './csrf';
import type { Environment, SessionStateAnswer, SignInAnswer, SignInInput, VerifySessionAnswer } from './contracts/session';

/** The element the director inlines the session state in (server/spa-index.ts). */
const SESSION_SCRIPT_ID = 'vigil-session';

/**
 * The session state the director put into the page (what GET /users/session.json answers), once: the
 * element is removed when read, so a later check asks the director. Null when the page has none (the
 * Vite dev server's page) or it cannot be read.
 */
export function takeInlinedSession(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): SessionStateAnswer | null {
  const el = doc?.getElementById(SESSION_SCRIPT_ID);
  if (!el) return null;
  el.remove();
  try {
    const state = JSON.parse(el.textContent ?? '') as SessionStateAnswer;
    return typeof state?.signed_in === 'boolean' && (!state.signed_in || typeof state.environment?.csrfToken === 'string') ? state : null;
  } catch {
    return null;
  }
}

function environmentOfState(state: SessionStateAnswer): Environment | null {
  if (!state.signed_in) return null;
  setCsrfToken(state.environment.csrfToken);
  return state.environment;
}

/**
 * The environment the page came with (a load of the director's page), so the first render needs no call:
 * the signed-in user's, null when signed out, undefined when the page says nothing (then fetchEnvironment asks).
 */
export function inlinedEnvironment(): Environment | null | undefined {
  const state = takeInlinedSession();
  return state ? environmentOfState(state) : undefined;
}

/**
 * The signed-in user's environment, or null when this browser is signed out: one call, which answers 200
 * either way, so a signed-out load makes no call that fails (no 401 in the console).
 */
export const fetchEnvironment = async (): Promise<Environment | null> => environmentOfState(await http.get<SessionStateAnswer>('/users/session.json'));

export async function signIn(input: SignInInput): Promise<SignInAnswer> {
  setSigningOut(false);
  const answer = await http.post<SignInAnswer>('/users/sign_in.json', input);
  setCsrfToken(answer.csrf_token);
  return answer;
}

/** Ends the session; until the page leaves no other call is sent (setSigningOut), unless it fails. */
export async function signOut(): Promise<void> {
  setSigningOut(true);
  try {
    await http.delete(SIGN_OUT_PATH);
  } catch (e) {
    setSigningOut(false);
    throw e;
  }
  setCsrfToken(null);
}

/** Changes the signed-in user's password (the current one required); the user's other sessions end. */
export const changePassword = (currentPassword: string, password: string) =>
  http.post<{ changed: true; other_sessions_ended: number }>('/users/password.json', { current_password: currentPassword, password });

export const verifySession = () => http.get<VerifySessionAnswer>('/users/verify_user_session', { background: true });
export const resetSessionTimeout = () => http.get<VerifySessionAnswer>('/users/reset_user_session_timeout');

export const environmentQueryKey = ['environment'] as const;
