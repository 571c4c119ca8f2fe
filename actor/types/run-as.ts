/**
 * host_cli run-as: the director puts the action's run-as user profile in the work (details.run_as,
 * server/engine/run-as.ts). An actor running as root runs the script as that OS user (the shell is
 * spawned with the user's uid and gid and a small environment of its own); otherwise the action ends
 * incompatible with the reason. require_run_as_interactive needs a graphical session: an actor
 * without DISPLAY or WAYLAND_DISPLAY (headless) ends incompatible; with one, the display variables
 * are handed to the script.
 */
import { spawnSync } from 'node:child_process';
import { Incompatible } from './contract';

export interface OsUser {
  uid: number;
  gid: number;
  home: string;
}

/** What the actor's host offers; tests replace it. */
export interface RunAsHost {
  /** The actor's own uid (null on Windows). */
  uid: number | null;
  lookup(username: string): OsUser | null;
  env: NodeJS.ProcessEnv;
}

export interface RunAs {
  username: string;
  uid?: number | undefined;
  gid?: number | undefined;
  env: NodeJS.ProcessEnv;
}

const DISPLAY_VARS = ['DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'XDG_RUNTIME_DIR'];

/** An OS user from the passwd database (getent), or null. */
export function lookupOsUser(username: string): OsUser | null {
  if (!/^[A-Za-z_][A-Za-z0-9_.-]{0,31}\$?$/.test(username)) return null;
  const r = spawnSync('getent', ['passwd', username], { encoding: 'utf8', timeout: 5000 });
  const fields = r.status === 0 ? r.stdout.trim().split(':') : [];
  if (fields.length < 7) return null;
  return { uid: Number(fields[2]), gid: Number(fields[3]), home: fields[5] ?? '/' };
}

export const actorHost = (): RunAsHost => ({ uid: process.getuid?.() ?? null, lookup: lookupOsUser, env: process.env });

/** How the script runs: as the actor itself (no profile) or as the profile's user. Throws Incompatible with the reason. */
export function resolveRunAs(details: Record<string, unknown>, host: RunAsHost = actorHost()): RunAs {
  const profile = details.run_as as { username?: unknown; friendly_name?: unknown } | undefined;
  const username = typeof profile?.username === 'string' ? profile.username : '';
  const interactive = details.require_run_as_interactive === true;
  const headless = !host.env.DISPLAY && !host.env.WAYLAND_DISPLAY;
  const who = username || 'the actor user';
  if (interactive && headless) {
    throw new Incompatible(`The action must run as ${who} in an interactive session, and this actor is headless (no DISPLAY or WAYLAND_DISPLAY), so it cannot honour require run as interactive.`);
  }
  if (!username) return { username: '', env: host.env };
  if (host.uid === null) throw new Incompatible(`This actor cannot switch users on ${process.platform}, so it cannot run as ${username}.`);
  const user = host.lookup(username);
  if (!user) throw new Incompatible(`User ${username} does not exist on this actor.`);
  if (host.uid !== 0 && host.uid !== user.uid) throw new Incompatible(`The actor is not running as root, so it cannot run as ${username}.`);
  const env: NodeJS.ProcessEnv = { PATH: host.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', LANG: host.env.LANG ?? 'C.UTF-8', HOME: user.home, USER: username, LOGNAME: username };
  if (interactive) for (const k of DISPLAY_VARS) if (host.env[k]) env[k] = host.env[k];
  return { username, uid: user.uid, gid: user.gid, env };
}
