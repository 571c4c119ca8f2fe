import { http, setSigningOut, SIGN_OUT_PATH } from './http';
import { setCsrfToken } from './csrf';
import type { Environment, SessionStateAnswer, SignInAnswer, SignInInput, VerifySessionAnswer } from './contracts/session';

/**
 * The signed-in user's environment, or null when this browser is signed out: one call, which answers 200
 * either way, so a signed-out load makes no call that fails (no 401 in the console).
 */
export async function fetchEnvironment(): Promise<Environment | null> {
  const state = await http.get<SessionStateAnswer>('/users/session.json');
  if (!state.signed_in) return null;
  setCsrfToken(state.environment.csrfToken);
  return state.environment;
}

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
