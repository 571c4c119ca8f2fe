/** The lab's calls to the director, signed in as an administrator (VIGIL_EMAIL / VIGIL_PASSWORD). */
import { signIn } from '../../cli/sign-in';
import type { LabActor, LabRemoval, LabSetupAnswer, LabSetupRequest } from '../../src/api/contracts/lab';
import { LabError } from './system';

export class DirectorClient {
  private constructor(
    readonly url: string,
    private readonly cookie: string,
    private readonly csrf: string,
  ) {}

  static async signIn(url: string, email: string, password: string): Promise<DirectorClient> {
    try {
      const { cookie, answer } = await signIn(url, email, password);
      return new DirectorClient(url, cookie, answer.csrf_token);
    } catch (e) {
      throw new LabError(`${(e as Error).message} (the lab signs in to ${url} as an administrator: set VIGIL_EMAIL and VIGIL_PASSWORD).`);
    }
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.url}${path}`, {
        method,
        headers: { Cookie: this.cookie, 'X-CSRF-Token': this.csrf, 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    } catch {
      throw new LabError(`The director at ${this.url} could not be reached.`);
    }
    const answer = (await res.json().catch(() => ({}))) as T & { error?: string };
    if (res.status < 200 || res.status > 299) throw new LabError(`${method} ${path}: ${answer.error ?? `status ${res.status}`}`);
    return answer;
  }

  setup(input: LabSetupRequest): Promise<LabSetupAnswer> {
    return this.call('POST', '/lab/setups.json', input);
  }

  async actors(prefix: string): Promise<LabActor[]> {
    return (await this.call<{ data: LabActor[] }>('POST', `/lab/setups/${prefix}/actors.json`, {})).data;
  }

  remove(prefix: string): Promise<LabRemoval> {
    return this.call('DELETE', `/lab/setups/${prefix}.json`);
  }
}
