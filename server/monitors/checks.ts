/**
 * The checks of a monitor body that need the database (the yup contract has done the rest): the
 * actions, actors, zones, email and run-as profiles exist; a zone holds an actor when an interactive
 * desktop session is required or set (MON-100); a spoofed From address is refused with a hosted mail
 * API sender profile (MON-101); typed runtime fields belong to the action's type (MON-036..039); the
 * run-as user and Interactive Session follow the run-as rules (MON-103..106, MON-065); a temporary DNS
 * server is one the engine can resolve (MON-037).
 * Every problem is collected under its field path, then one 400 answers them all.
 */
import type { Db } from '../db/index';
import { badRequest } from '../http-errors';
import {
  HOSTED_MAIL_API_KINDS,
  INTERACTIVE_ZONE_MESSAGE,
  RUNTIME_FIELDS,
  SPOOFED_FROM_MESSAGE,
  type EmailProfileKind,
  type MonitorBody,
} from '../../src/api/contracts/monitors';
import { SINGLE_ACTOR_TYPES } from '../../src/api/contracts/engine';
import { groupRunAsState, runAsActors, runAsProblems } from './run-as';
import { knownTemporaryServer } from '../engine/peer-dns';

const TEMPORARY_DNS_SERVER_MESSAGE = "runtime_temporary_dns_server must be 'Destination Actor', the name or address of a DNS server, or an IP address with an optional :port.";

export interface CheckedActions {
  /** action id -> its type, for the caller. */
  types: Map<number, string>;
}

const ids = (xs: (number | null | undefined)[]) => [...new Set(xs.filter((x): x is number => typeof x === 'number'))];

export async function checkMonitorBody(db: Db, body: MonitorBody): Promise<CheckedActions> {
  const errors: Record<string, string[]> = {};
  const add = (path: string, message: string) => (errors[path] ??= []).push(message);

  const actionIds = ids(body.steps.flatMap((g) => g.actions.map((a) => a.action_id)));
  const actions = await db.query<{ id: number; action_type: string; name: string; require_protected: boolean }>(
    'select id, action_type, name, require_protected from actions where id = any($1::int[])',
    [actionIds],
  );
  const types = new Map(actions.map((a) => [a.id, a.action_type]));
  const protectedIds = new Set(actions.filter((a) => a.require_protected).map((a) => a.id));
  const nodeIds = ids(body.steps.flatMap((g) => [g.attack_node, g.target_node]));
  const zoneIds = ids(body.steps.flatMap((g) => [g.attack_zone, g.target_zone]));
  const profileIds = ids(body.steps.flatMap((g) => [g.from_email_profile, g.to_email_profile]));
  const userProfileIds = ids(body.steps.map((g) => g.action_user_profile));
  const [nodes, zones, profiles, userProfiles, actors] = await Promise.all([
    db.query<{ id: number }>('select id from nodes where id = any($1::int[])', [nodeIds]),
    db.query<{ id: number; name: string; nodes: number }>(
      'select z.id, z.name, (select count(*)::int from nodes n where n.security_zone_id = z.id) as nodes from zones z where z.id = any($1::int[])',
      [zoneIds],
    ),
    db.query<{ id: number; kind: EmailProfileKind }>('select id, kind from email_profiles where id = any($1::int[])', [profileIds]),
    db.query<{ id: number }>('select id from action_user_profiles where id = any($1::int[])', [userProfileIds]),
    runAsActors(db, ids(body.steps.map((g) => g.attack_node)), ids(body.steps.map((g) => g.attack_zone))),
  ]);
  const nodeSet = new Set(nodes.map((n) => n.id));
  const zoneMap = new Map(zones.map((z) => [z.id, z]));
  const profileMap = new Map(profiles.map((p) => [p.id, p]));
  const userProfileSet = new Set(userProfiles.map((p) => p.id));

  if (body.monitor_group !== null) {
    const [g] = await db.query('select 1 from monitor_groups where id = $1', [body.monitor_group]);
    if (!g) add('monitor_group', `Monitor group ${body.monitor_group} does not exist.`);
  }
  if (body.simulation_id !== null) {
    const [s] = await db.query('select 1 from simulations where id = $1', [body.simulation_id]);
    if (!s) add('simulation_id', `Simulation ${body.simulation_id} does not exist.`);
  }

  const dnsChecks: { path: string; value: string }[] = [];
  body.steps.forEach((g, gi) => {
    const at = (f: string) => `steps[${gi}].${f}`;
    const zone = g.run_between === 'zone';
    const groupTypes = g.actions.map((a) => types.get(a.action_id)).filter((t): t is string => !!t);
    const needsTarget = groupTypes.some((t) => !SINGLE_ACTOR_TYPES.includes(t));
    for (const side of ['attack', 'target'] as const) {
      const node = g[`${side}_node`];
      const zoneId = g[`${side}_zone`];
      const label = side === 'attack' ? 'source' : 'destination';
      if (!zone && node !== null && !nodeSet.has(node)) add(at(`${side}_node`), `Actor ${node} does not exist.`);
      if (zone && zoneId !== null) {
        const z = zoneMap.get(zoneId);
        if (!z) add(at(`${side}_zone`), `Zone ${zoneId} does not exist.`);
        else if ((g.interactive_desktop_session || g.require_interactive) && z.nodes === 0) add(at(`${side}_zone`), INTERACTIVE_ZONE_MESSAGE);
      }
      if (side === 'target' && needsTarget && (zone ? zoneId === null : node === null)) add(at(zone ? 'target_zone' : 'target_node'), `Choose a ${label} ${zone ? 'zone' : 'actor'}`);
    }
    if (!zone && g.attack_node !== null && g.attack_node === g.target_node) add(at('target_node'), 'Source and destination must be different actors.');
    for (const f of ['from_email_profile', 'to_email_profile'] as const) {
      const id = g[f];
      if (id !== null && !profileMap.has(id)) add(at(f), `Email profile ${id} does not exist.`);
    }
    if (g.action_user_profile !== null && !userProfileSet.has(g.action_user_profile)) add(at('action_user_profile'), `Run-as user profile ${g.action_user_profile} does not exist.`);
    const runAs = groupRunAsState(g, groupTypes, g.actions.some((a) => protectedIds.has(a.action_id)), actors);
    for (const [field, message] of Object.entries(runAsProblems(g, runAs))) add(at(field), message);
    const sender = g.from_email_profile !== null ? profileMap.get(g.from_email_profile) : undefined;
    g.actions.forEach((a, ai) => {
      const path = (f: string) => `steps[${gi}].actions[${ai}].${f}`;
      const type = types.get(a.action_id);
      if (!type) {
        add(path('action_id'), `Action ${a.action_id} does not exist.`);
        return;
      }
      const allowed = RUNTIME_FIELDS[type];
      for (const key of Object.keys(a.runtime)) {
        if (allowed && !allowed.includes(key)) add(path(`runtime.${key}`), `${key} is not a runtime parameter of ${type} actions.`);
      }
      const from = (a.runtime as Record<string, unknown>).runtime_from_address;
      if (type === 'email' && typeof from === 'string' && from.trim() && sender && HOSTED_MAIL_API_KINDS.includes(sender.kind)) {
        add(path('runtime.runtime_from_address'), SPOOFED_FROM_MESSAGE);
      }
      const dnsServer = (a.runtime as Record<string, unknown>).runtime_temporary_dns_server;
      if (type === 'dns' && typeof dnsServer === 'string' && dnsServer.trim()) dnsChecks.push({ path: path('runtime.runtime_temporary_dns_server'), value: dnsServer });
      const port = (a.runtime as Record<string, unknown>).runtime_target_port;
      if (port !== undefined && port !== '' && !(Number.isInteger(Number(port)) && Number(port) >= 1 && Number(port) <= 65535)) {
        add(path('runtime.runtime_target_port'), 'runtime_target_port must be a port number from 1 to 65535.');
      }
    });
  });

  for (const c of dnsChecks) if (!(await knownTemporaryServer(db, c.value))) add(c.path, TEMPORARY_DNS_SERVER_MESSAGE);

  if (Object.keys(errors).length) throw badRequest(Object.values(errors).flat().join(' '), { errors });
  return { types };
}
