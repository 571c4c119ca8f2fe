/**
 * The security lab's evaluation (SEED=demo): "Lab: segmentation and egress", socket Actions that
 * between them reach every rule of lab/policy.nft. Step 1 runs from the lab's user actor to its server
 * actor, step 2 from the user actor to the dmz actor; the firewall decides each Action for real, and
 * the policy file's "# expect" lines say what each should get (and, with to=dmz, that it runs in
 * step 2). Idempotent: nothing is added when the evaluation exists.
 */
import type { Db } from '../db/index';

export const LAB_EVALUATION_NAME = 'Lab: segmentation and egress';
export const LAB_EVALUATION_VID = 'S900-100';

/** The zone of an Action's destination actor: the evaluation's step 1 aims at the server zone, step 2 at the dmz. */
export type LabTargetZone = 'server' | 'dmz';
export const LAB_STEPS: readonly { zone: LabTargetZone; name: string }[] = [
  { zone: 'server', name: 'User zone to server zone' },
  { zone: 'dmz', name: 'User zone to dmz' },
];

interface LabAction {
  zone: LabTargetZone;
  vid: string;
  name: string;
  description: string;
  comm: 'tcp' | 'udp';
  port: number;
  request: string;
  response: string;
}

export const LAB_ACTIONS: readonly LabAction[] = [
  { zone: 'server', vid: 'A900-445', name: 'Lab: SMB session to a server', description: 'Opens TCP 445 from the user zone to a server and exchanges an SMB-like greeting. Outbound SMB should be prevented.', comm: 'tcp', port: 445, request: 'SMB NEGOTIATE', response: 'SMB OK' },
  { zone: 'server', vid: 'A900-338', name: 'Lab: RDP session to a server', description: 'Opens TCP 3389 from the user zone to a server. Outbound RDP should be prevented.', comm: 'tcp', port: 3389, request: 'RDP CONNECT', response: 'RDP OK' },
  { zone: 'server', vid: 'A900-844', name: 'Lab: web admin console of a server', description: 'Reaches a server\'s web admin port (TCP 8443) from another zone. It should be prevented and raise an alert.', comm: 'tcp', port: 8443, request: 'GET /admin HTTP/1.0\r\n\r\n', response: 'HTTP/1.0 200 OK' },
  { zone: 'server', vid: 'A900-021', name: 'Lab: FTP control channel to a server', description: 'Opens an FTP control channel (TCP 21) between zones, the way files would leave. It should be prevented and logged.', comm: 'tcp', port: 21, request: 'USER lab', response: '331 Password required' },
  { zone: 'server', vid: 'A900-022', name: 'Lab: SSH from the user zone to a server', description: 'Opens TCP 22 from the user zone to a server. Allowed by policy, and logged.', comm: 'tcp', port: 22, request: 'SSH-2.0-VigilLab', response: 'SSH-2.0-VigilLabServer' },
  { zone: 'server', vid: 'A900-023', name: 'Lab: Telnet between zones', description: 'Opens TCP 23 between zones. Allowed as a legacy exception, and it should raise an alert.', comm: 'tcp', port: 23, request: 'login: lab', response: 'Password:' },
  { zone: 'server', vid: 'A900-808', name: 'Lab: HTTP on 8080 to a server', description: 'Plain HTTP on TCP 8080 to a server. Nothing in the policy sees it.', comm: 'tcp', port: 8080, request: 'GET / HTTP/1.0\r\n\r\n', response: 'HTTP/1.0 200 OK' },
  { zone: 'server', vid: 'A900-053', name: 'Lab: DNS to a server that is not the lab resolver', description: 'Sends a DNS-sized UDP query to port 53 of a server instead of the lab resolver. It should be prevented and raise an alert.', comm: 'udp', port: 53, request: 'lab-query example.test A', response: 'lab-answer 10.0.0.1' },
  { zone: 'server', vid: 'A900-054', name: 'Lab: DNS over TCP to a server that is not the lab resolver', description: 'Opens TCP 53 to a server instead of the lab resolver (DNS over TCP, as zone transfers and large answers use). It should be prevented and raise an alert.', comm: 'tcp', port: 53, request: 'lab-query example.test AXFR', response: 'lab-answer 10.0.0.1' },
  { zone: 'dmz', vid: 'A900-080', name: 'Lab: HTTP to the dmz web server', description: 'Plain HTTP on TCP 80 from the user zone to the dmz, which takes web traffic. Allowed, and nothing in the policy logs it.', comm: 'tcp', port: 80, request: 'GET / HTTP/1.0\r\n\r\n', response: 'HTTP/1.0 200 OK' },
  { zone: 'dmz', vid: 'A900-056', name: 'Lab: DNS to the lab resolver', description: 'Sends a DNS-sized UDP query to port 53 of the lab resolver in the dmz, the one DNS server the policy allows. Allowed, not logged.', comm: 'udp', port: 53, request: 'lab-query example.test A', response: 'lab-answer 10.0.0.1' },
  { zone: 'dmz', vid: 'A900-122', name: 'Lab: SSH to the dmz', description: 'Opens TCP 22 from the user zone to the dmz, which takes only web and DNS. It should be prevented and logged.', comm: 'tcp', port: 22, request: 'SSH-2.0-VigilLab', response: 'SSH-2.0-VigilLabDmz' },
  { zone: 'dmz', vid: 'A900-909', name: 'Lab: web admin console in the dmz', description: 'Reaches the web admin port (TCP 9090) of a dmz host from the user zone. It should be prevented and raise an alert.', comm: 'tcp', port: 9090, request: 'GET /console HTTP/1.0\r\n\r\n', response: 'HTTP/1.0 200 OK' },
];

export async function seedLabEvaluation(db: Db): Promise<boolean> {
  const exists = await db.query('select 1 from simulations where vid = $1', [LAB_EVALUATION_VID]);
  if (exists.length) return false;
  await db.transaction(async (tx) => {
    const [admin] = await tx.query<{ id: number }>(`select id from users where role = 'admin' order by id limit 1`);
    const ids = new Map<LabTargetZone, number[]>();
    for (const a of LAB_ACTIONS) {
      const details = { comm_type: a.comm, server_port: a.port, steps: [{ data_type: 'ascii', request: a.request, response: a.response }] };
      const [row] = await tx.query<{ id: number }>(
        `insert into actions (vid, name, description, orig_description, action_type, approved, details, created_by)
         values ($1, $2, $3, $3, 'socket', true, $4::jsonb, $5)
         on conflict (vid) do update set name = excluded.name returning id`,
        [a.vid, a.name, a.description, JSON.stringify(details), admin?.id ?? null],
      );
      ids.set(a.zone, [...(ids.get(a.zone) ?? []), row!.id]);
    }
    const [sim] = await tx.query<{ id: number }>(
      `insert into simulations (vid, name, description, simulation_type, created_by) values ($1, $2, $3, 'eval', $4) returning id`,
      [LAB_EVALUATION_VID, LAB_EVALUATION_NAME, 'Runs between the security lab\'s actors (npm run lab) through a real nftables firewall whose log reaches Vigil through ulogd2: step 1 from the user zone\'s actor to the server zone\'s, step 2 from the user zone\'s actor to the dmz\'s. lab/policy.nft says what each Action should get.', admin?.id ?? null],
    );
    for (const [position, s] of LAB_STEPS.entries()) {
      const [step] = await tx.query<{ id: number }>(`insert into simulation_steps (simulation_id, position, name) values ($1, $2, $3) returning id`, [sim!.id, position, s.name]);
      for (const [i, id] of (ids.get(s.zone) ?? []).entries()) await tx.query('insert into simulation_step_actions (step_id, action_id, position) values ($1, $2, $3)', [step!.id, id, i]);
    }
  });
  return true;
}
