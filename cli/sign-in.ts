/** Signing in to a director from Node (the terminal script runner, the lab): the session cookie and the answer with its CSRF token. */
import type { SignInAnswer } from '../src/api/contracts/session';

export async function signIn(director: string, email: string, password: string): Promise<{ cookie: string; answer: SignInAnswer }> {
  let res: Response;
  try {
    res = await fetch(`${director}/users/sign_in.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify({ email, password }),
    });
  } catch {
    throw new Error(`The director at ${director} could not be reached.`);
  }
  const body = (await res.json().catch(() => ({}))) as SignInAnswer & { error?: string };
  if (res.status !== 200) throw new Error(`Sign-in failed: ${body.error ?? `status ${res.status}`}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  return { cookie, answer: body };
}
