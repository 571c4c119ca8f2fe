/** Whether the lab can run on this machine (root, the tools, network namespaces, nf_tables in one): null, or why not. Used by the lab's tests to skip with the reason. */
import { execFileSync } from 'node:child_process';
import { LabError, checkHost, findProgram } from './system';

const stderrOf = (e: unknown) => (e as { stderr?: Buffer }).stderr?.toString().trim() || String(e);

export function labUnsupportedReason(probeName: string): string | null {
  try {
    checkHost();
  } catch (e) {
    return e instanceof LabError ? e.message : String(e);
  }
  const ip = findProgram('ip')!;
  try {
    execFileSync(ip, ['netns', 'add', probeName], { stdio: 'pipe' });
  } catch (e) {
    return `network namespaces cannot be created here: ${stderrOf(e)}`;
  }
  try {
    execFileSync(ip, ['netns', 'exec', probeName, findProgram('nft')!, 'add', 'table', 'inet', 'probe'], { stdio: 'pipe' });
    return null;
  } catch (e) {
    return `nf_tables does not work in a network namespace here: ${stderrOf(e)}`;
  } finally {
    execFileSync(ip, ['netns', 'del', probeName], { stdio: 'pipe' });
  }
}
