/**
 * Actor installers (Download Actor Installer modal). This director can produce one kind: a POSIX
 * shell script (Linux, and macOS, where the same script runs) that starts this project's actor
 * (actor/main.ts) against this director. It cannot build a Windows .exe or a macOS .app, and says so.
 * The script never holds a bulk token's secret (only its hash is stored): it takes it from
 * VIGIL_BULK_TOKEN or a file (VIGIL_BULK_TOKEN_FILE), never from its command line, and hands it to the
 * actor in the environment, so `ps` never shows it.
 */
import os from 'node:os';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../http-errors';
import { ACTOR_NODE_FLAGS } from '../../src/api/contracts/engine';
import { INSTALLER_KINDS, INSTALLER_OSES, TOKEN_PLACEHOLDER, actorCommand, installerLink, type InstallerOption, type InstallerOs } from '../../src/api/contracts/actors';

/**
 * This director's address for installers and commands: PUBLIC_URL from the configuration, else the
 * address it listens on. Never the request's Host header: anyone can send any Host, and what is named
 * here is written into scripts that run with an actor's rights.
 */
export function directorUrl(req: FastifyRequest): string {
  const { config, server } = req.server;
  if (config.publicUrl) return config.publicUrl;
  const addr = server.address();
  if (!addr || typeof addr === 'string') throw badRequest('The director does not know its address: set PUBLIC_URL.');
  const host = addr.address === '0.0.0.0' || addr.address === '::' ? os.hostname() : addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${host}:${addr.port}`;
}

export const scriptOses: readonly InstallerOs[] = ['linux', 'macos'];
export const scriptFile = (os: InstallerOs) => `vigil-actor-${os}.sh`;
export const installerPath = (tokenId: number, os: InstallerOs) => `/actor_installer/${tokenId}/${os}.sh`;

const ADDRESS_PROBE: Record<string, string> = {
  linux: `$(hostname -I 2>/dev/null | awk '{print $1}')`,
  macos: `$(ipconfig getifaddr en0 2>/dev/null || ipconfig getifaddr en1 2>/dev/null || true)`,
};

/** The shell installer for one OS; `secure` verifies the director's TLS certificate (curl and Node.js). */
export function installerScript(opts: { os: InstallerOs; director: string; tokenId: number; secure: boolean }): string {
  const { os, director, tokenId, secure } = opts;
  const label = INSTALLER_KINDS[os].label;
  const tls = secure
    ? ['# TLS: the director\'s certificate is verified (secure=1).', "CURL_TLS=''"]
    : ['# TLS: a self-signed director certificate is accepted (not verified).', "CURL_TLS='-k'", 'export NODE_TLS_REJECT_UNAUTHORIZED=0'];
  return `#!/bin/sh
# Vigil actor installer for ${label}, made by the director ${director} for bulk token ${tokenId}.
#
# Usage: VIGIL_BULK_TOKEN=... sh ${scriptFile(os)}    (or: VIGIL_BULK_TOKEN_FILE=FILE sh ${scriptFile(os)})
# The token is read from the environment or a file, never from the command line (ps shows that to
# every user of the machine).
# The bulk token's secret is not in this script: the director keeps only its hash and showed the
# secret once, when the token was created.
# Needs Node.js 20.19 or newer and a checkout of Vigil with its dependencies installed (npm ci) in
# VIGIL_DIR (default: the current directory). Optional: VIGIL_ACTOR_NAME (default: the host name),
# VIGIL_ACTOR_ADDRESS (default: the host's first address), VIGIL_ACTOR_STATE (default:
# $HOME/.vigil-actor.json, where the actor keeps its credential across restarts).
set -eu
DIRECTOR='${director}'
${tls.join('\n')}
if [ \$# -gt 0 ]; then
  echo "The bulk token is not taken from the command line (ps shows it to every user): VIGIL_BULK_TOKEN=... sh ${scriptFile(os)}" >&2
  exit 2
fi
if [ -z "\${VIGIL_BULK_TOKEN:-}" ] && [ -n "\${VIGIL_BULK_TOKEN_FILE:-}" ]; then
  VIGIL_BULK_TOKEN=$(cat "$VIGIL_BULK_TOKEN_FILE")
fi
if [ -z "\${VIGIL_BULK_TOKEN:-}" ] && [ ! -f "\${VIGIL_ACTOR_STATE:-$HOME/.vigil-actor.json}" ]; then
  echo "Give the bulk token: VIGIL_BULK_TOKEN=... sh ${scriptFile(os)} (or VIGIL_BULK_TOKEN_FILE=FILE)." >&2
  exit 2
fi
export VIGIL_BULK_TOKEN="\${VIGIL_BULK_TOKEN:-}"
VIGIL_DIR="\${VIGIL_DIR:-$(pwd)}"
if [ ! -f "$VIGIL_DIR/actor/main.ts" ] || [ ! -d "$VIGIL_DIR/node_modules" ]; then
  echo "$VIGIL_DIR is not a Vigil checkout with its dependencies installed: set VIGIL_DIR." >&2
  exit 2
fi
if ! command -v node >/dev/null 2>&1; then
  echo "Node.js (20.19 or newer) is not installed." >&2
  exit 2
fi
if command -v curl >/dev/null 2>&1; then
  if ! curl -sS $CURL_TLS -o /dev/null "$DIRECTOR/"; then
    echo "The director $DIRECTOR cannot be reached (curl's message above)." >&2
    exit 1
  fi
fi
NAME="\${VIGIL_ACTOR_NAME:-$(hostname)}"
ADDRESS="\${VIGIL_ACTOR_ADDRESS:-${ADDRESS_PROBE[os] ?? ''}}"
[ -n "$ADDRESS" ] || ADDRESS=127.0.0.1
STATE="\${VIGIL_ACTOR_STATE:-$HOME/.vigil-actor.json}"
cd "$VIGIL_DIR"
echo "Starting the Vigil actor $NAME ($ADDRESS) for $DIRECTOR"
exec node ${ACTOR_NODE_FLAGS.join(' ')} --import tsx actor/main.ts --director "$DIRECTOR" --name "$NAME" --address "$ADDRESS" --state "$STATE"
`;
}

/** The three boxes of the modal for one token. */
export function installerOptions(director: string, tokenId: number): InstallerOption[] {
  return INSTALLER_OSES.map((os) => {
    const { label, kind } = INSTALLER_KINDS[os];
    if (!scriptOses.includes(os)) {
      return {
        os, label, kind, url: null, file: null, selected_command: null, deselected_command: null,
        message: `No .${kind} installer: this director cannot build one. Run the actor with Node.js 20.19 or newer from a Vigil checkout: ${actorCommand(director, TOKEN_PLACEHOLDER)}`,
      };
    }
    const url = installerPath(tokenId, os);
    const run = (selfSigned: boolean) =>
      `curl -fsSL${selfSigned ? 'k' : ''} '${director}${installerLink(url, selfSigned)}' -o ${scriptFile(os)} && VIGIL_BULK_TOKEN=${TOKEN_PLACEHOLDER} VIGIL_DIR=<VIGIL_CHECKOUT> sh ${scriptFile(os)}`;
    const note = kind === 'app' ? `No .app installer: this director cannot build one. The shell installer runs on macOS too. ` : '';
    return {
      os, label, kind, url, file: scriptFile(os), selected_command: run(true), deselected_command: run(false),
      message: `${note}The script starts this project's actor from a Vigil checkout (Node.js 20.19 or newer); give it the bulk token shown when the token was created.`,
    };
  });
}
