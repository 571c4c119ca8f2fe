/**
 * The actor's dependencies (JOB-061): the system programs its action types need, found on this host
 * with their versions, and the missing ones installed with the host's package manager when the actor
 * may (it runs as root, or sudo works without a password) and has not been told not to.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findTool, runTool } from './types/tools';
import type { ActorDependency } from '../src/api/contracts/actor-dependencies';

export interface Dependency {
  /** Alternative program names; the first one found counts. */
  names: string[];
  needed_for: string;
  optional?: boolean;
  /** Package per package manager. */
  packages: Partial<Record<PackageManagerName, string>>;
  /** Arguments that make the program print its version (stdout or stderr). */
  versionArgs: string[];
  /**
   * A program of the same package that prints the version when this one cannot (scp has no version
   * flag; ssh -V prints the OpenSSH release scp belongs to): looked for beside the program first.
   */
  versionVia?: string;
}

type PackageManagerName = 'apt-get' | 'dnf' | 'apk';

/** What the action types of this actor need (actor/types/*). */
export const DEPENDENCIES: readonly Dependency[] = [
  { names: ['ssh'], needed_for: 'file_transfer over scp and ssh tunnels (source)', packages: { 'apt-get': 'openssh-client', dnf: 'openssh-clients', apk: 'openssh-client' }, versionArgs: ['-V'] },
  { names: ['scp'], needed_for: 'file_transfer over scp (source)', packages: { 'apt-get': 'openssh-client', dnf: 'openssh-clients', apk: 'openssh-client' }, versionArgs: ['-V'], versionVia: 'ssh' },
  { names: ['sshd'], needed_for: 'file_transfer over scp and ssh tunnels (target)', packages: { 'apt-get': 'openssh-server', dnf: 'openssh-server', apk: 'openssh-server' }, versionArgs: ['-V'] },
  { names: ['ssh-keygen'], needed_for: 'file_transfer over scp and ssh tunnels (one-time keys)', packages: { 'apt-get': 'openssh-client', dnf: 'openssh-clients', apk: 'openssh-keygen' }, versionArgs: ['-V'] },
  { names: ['openssl'], needed_for: 'https websites, web requests and transfers (certificate)', packages: { 'apt-get': 'openssl', dnf: 'openssl', apk: 'openssl' }, versionArgs: ['version'] },
  { names: ['bzip2'], needed_for: 'file_transfer bzip2 encoding', packages: { 'apt-get': 'bzip2', dnf: 'bzip2', apk: 'bzip2' }, versionArgs: ['--help'] },
  { names: ['7z', '7za', '7zz'], needed_for: 'file_transfer 7zip encoding', packages: { 'apt-get': '7zip', dnf: 'p7zip', apk: '7zip' }, versionArgs: [] },
  { names: ['rar'], needed_for: 'file_transfer rar encoding (non-free: optional)', optional: true, packages: { 'apt-get': 'rar' }, versionArgs: [] },
];

export interface PackageManager {
  name: PackageManagerName;
  /** The command and arguments that install one package (the package is appended). */
  install: string[];
  /** Refreshes the package lists (run once when an install fails). */
  refresh?: string[];
}

export interface DependencyOptions {
  /** False: only look, install nothing (the actor's --no-install-deps). */
  install: boolean;
  /** Overrides the package manager found on the host (tests). */
  packageManager?: PackageManager | null;
  dependencies?: readonly Dependency[];
  log?: (line: string) => void;
}

const VERSION_RE = /\d+\.\d+[\w.+~-]*/;

/** The first line of what the program prints about itself that carries a version number. */
async function versionOf(program: string, args: string[]): Promise<string | null> {
  try {
    const r = await runTool(program, args, { timeoutMs: 5000, maxBytes: 64 * 1024 });
    const line = `${r.stdout.toString('utf8')}\n${r.stderr}`.split('\n').find((l) => VERSION_RE.test(l));
    return line ? line.trim().slice(0, 200) : null;
  } catch {
    return null;
  }
}

/** The host's package manager, prefixed with sudo -n when the actor is not root (null when it may not install). */
export async function hostPackageManager(): Promise<PackageManager | null> {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  let prefix: string[] = [];
  if (!root) {
    const sudo = findTool('sudo');
    if (!sudo || (await runTool(sudo, ['-n', 'true'], { timeoutMs: 5000, maxBytes: 4096 }).catch(() => ({ code: 1 }))).code !== 0) return null;
    prefix = [sudo, '-n'];
  }
  const apt = findTool('apt-get');
  if (apt) return { name: 'apt-get', install: [...prefix, apt, 'install', '-y', '--no-install-recommends'], refresh: [...prefix, apt, 'update'] };
  const dnf = findTool('dnf');
  if (dnf) return { name: 'dnf', install: [...prefix, dnf, 'install', '-y'] };
  const apk = findTool('apk');
  if (apk) return { name: 'apk', install: [...prefix, apk, 'add', '--no-cache'], refresh: [...prefix, apk, 'update'] };
  return null;
}

async function look(d: Dependency): Promise<Pick<ActorDependency, 'program' | 'found' | 'path' | 'version'>> {
  for (const name of d.names) {
    const p = findTool(name);
    if (!p) continue;
    let version = await versionOf(p, d.versionArgs);
    if (!version && d.versionVia) {
      const sibling = path.join(path.dirname(p), d.versionVia);
      const via = fs.existsSync(sibling) ? sibling : findTool(d.versionVia);
      if (via) version = await versionOf(via, d.versionArgs);
    }
    return { program: name, found: true, path: p, version };
  }
  return { program: d.names[0]!, found: false, path: null, version: null };
}

async function installPackage(pm: PackageManager, pkg: string): Promise<string | null> {
  const run = async (argv: string[]) => {
    const [cmd, ...args] = argv as [string, ...string[]];
    return runTool(cmd, args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeoutMs: 10 * 60_000, maxBytes: 4 * 1024 * 1024 });
  };
  try {
    let r = await run([...pm.install, pkg]);
    if (r.code !== 0 && pm.refresh) {
      await run(pm.refresh);
      r = await run([...pm.install, pkg]);
    }
    return r.code === 0 ? null : `${pm.name} could not install ${pkg}: ${(r.stderr || r.stdout.toString('utf8')).trim().split('\n').slice(-3).join(' ').slice(0, 800) || `exit status ${String(r.code)}`}`;
  } catch (e) {
    return `${pm.name} could not install ${pkg}: ${(e as Error).message}`;
  }
}

export interface DependencyReport {
  ok: boolean;
  message: string;
  dependencies: ActorDependency[];
}

/**
 * Looks for every dependency; installs the missing ones (one package at a time, so one that is not
 * available does not stop the others) when allowed; looks again. ok when every required one is found.
 */
export async function installDependencies(opts: DependencyOptions): Promise<DependencyReport> {
  const list = opts.dependencies ?? DEPENDENCIES;
  const first = await Promise.all(list.map(look));
  const missing = list.filter((_, i) => !first[i]!.found);
  const pm = missing.length && opts.install ? (opts.packageManager !== undefined ? opts.packageManager : await hostPackageManager()) : null;
  const errors = new Map<Dependency, string>();
  const tried = new Map<string, string | null>();
  for (const d of missing) {
    if (!opts.install) continue;
    const pkg = pm ? d.packages[pm.name] : undefined;
    if (!pm) errors.set(d, 'No package manager this actor may use (it runs as root or with password-less sudo, with apt-get, dnf or apk).');
    else if (!pkg) errors.set(d, `No ${pm.name} package is known for ${d.names[0]!}.`);
    else {
      if (!tried.has(pkg)) {
        opts.log?.(`installing ${pkg} with ${pm.name}`);
        tried.set(pkg, await installPackage(pm, pkg));
      }
      const err = tried.get(pkg);
      if (err) errors.set(d, err);
    }
  }
  const after = missing.length && tried.size ? await Promise.all(list.map(look)) : first;
  const dependencies: ActorDependency[] = list.map((d, i) => {
    const now = after[i]!;
    const installedNow = !first[i]!.found && now.found;
    return {
      ...now,
      needed_for: d.needed_for,
      optional: d.optional === true,
      package: pm ? (d.packages[pm.name] ?? null) : (d.packages['apt-get'] ?? null),
      installed_now: installedNow,
      error: now.found ? null : (errors.get(d) ?? (opts.install ? null : 'Not installed; this actor was started with --no-install-deps.')),
    };
  });
  const lacking = dependencies.filter((d) => !d.found && !d.optional);
  const installed = dependencies.filter((d) => d.installed_now).map((d) => d.program);
  const optionalMissing = dependencies.filter((d) => !d.found && d.optional).map((d) => d.program);
  const found = `${dependencies.filter((d) => d.found).length} of ${dependencies.length} programs found on ${os.hostname()}`;
  const parts = [found, installed.length ? `installed ${installed.join(', ')}` : '', optionalMissing.length ? `optional, missing: ${optionalMissing.join(', ')}` : ''].filter(Boolean);
  if (lacking.length) return { ok: false, message: `Missing: ${lacking.map((d) => `${d.program} (${d.error ?? 'not installed'})`).join('; ')}. ${parts.join('; ')}.`, dependencies };
  return { ok: true, message: `${parts.join('; ')}.`, dependencies };
}
