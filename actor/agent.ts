/**
 * The Vigil actor agent: registers with a bulk token, keeps a heartbeat, long-polls the director for
 * work signed for it, performs it (actor/perform.ts) and reports results. Usable in-process (tests,
 * local actors) or from the CLI (actor/main.ts).
 *
 * Size: one class whose registration, heartbeat, polling and reporting share its credential, timers
 * and in-flight work; what needs none of that (perform.ts, the wire helpers) is already apart.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import {
  ACTOR_API,
  ACTOR_VERSION,
  MAX_RESULT_BYTES,
  MAX_WORK_FILE_BYTES,
  type PollAnswer,
  type RegisterAnswer,
  type SignedWork,
  type WorkPayload,
} from '../src/api/contracts/engine';
import { ChannelDown, ChannelRefused, ChannelUnreachable, DirectorChannel, errorOfAnswer } from './channel';
import { installDependencies, type DependencyOptions } from './deps';
import { runSource, startTarget } from './perform';
import type { ActorTaskPayload, SignedTask } from '../src/api/contracts/actor-dependencies';
import { warmUp } from './warm-up';
import { Incompatible, type Outcome, type PerformOptions, type TargetHandle } from './types/contract';

export interface ActorOptions {
  director: string;
  /** A bulk registration token (used when no saved credential exists). */
  bulkToken?: string | undefined;
  name: string;
  address: string;
  allowHostCli?: boolean;
  /** A JSON file keeping the actor's credential across restarts. */
  stateFile?: string | undefined;
  log?: (line: string) => void;
  tamper?: PerformOptions['tamper'];
  pollWaitMs?: number;
  /**
   * A Unix socket that carries the calls to the director (the lab's bridge: an actor in a network
   * namespace reaches the director on the host's loopback through it). The URL still names the director.
   */
  directorSocket?: string | undefined;
  /** False: a dependency install only looks for the programs and installs nothing (--no-install-deps). */
  installDeps?: boolean;
  /** Overrides for the dependency install (tests): the package manager and the list of programs. */
  dependencyOptions?: Pick<DependencyOptions, 'packageManager' | 'dependencies'>;
}

interface Credential {
  node_id: number;
  token: string;
  signing_key: string;
  heartbeat_ms: number;
  director: string;
}

export class ActorError extends Error {}

/** A call the director answered with a status other than 2xx (over HTTP or the channel): the status rides on the error. */
const answered = (path: string, status: number, message: string) => Object.assign(new ActorError(`${path} answered ${status}: ${message}`), { status });

const BASE_TYPES = ['port_scan', 'socket', 'website', 'web_request', 'dns', 'sleep', 'pcap', 'email', 'file_transfer', 'captive_dns', 'captive_ioc_url', 'captive_ioc_pcap'];
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export class ActorAgent {
  readonly session = crypto.randomBytes(12).toString('hex');
  private cred: Credential | null = null;
  private running = new Map<number, RunningWork>();
  private tasks = new Set<number>();
  /** Targets closing their servers (told to abort), each until its evidence reached the director by /evidence. */
  private closing = new Map<number, Promise<void>>();
  /**
   * Reports the next poll carries (one HTTP call less each than /ready and /evidence): targets now
   * serving, and targets whose servers closed with what they saw. A director that refuses them in a
   * poll (an older one: 400) gets them by /ready and /evidence from then on (reportsByPoll false).
   */
  private readonly pendingReady = new Map<number, PollReady>();
  private readonly pendingEvidence = new Map<number, Record<string, unknown>>();
  /** Sources' results the next poll carries (one HTTP call less each than /result). */
  private readonly pendingResults = new Map<number, Outcome>();
  /** Sources performing their work: the next poll waits for them (to carry their results), at most RESULT_WAIT_MS. */
  private readonly performing = new Map<number, Promise<void>>();
  private reportsByPoll = true;
  /** Targets starting their servers: the next poll waits for them (to carry their readiness), at most START_WAIT_MS. */
  private readonly starting = new Map<number, Promise<void>>();
  /** Targets' servers closing: the next poll waits for them (its actor may get the next work at once). */
  private closingServers: Promise<void>[] = [];
  private stopped = false;
  private pollAbort = new AbortController();
  private heartbeatTimer: NodeJS.Timeout | null = null;
  /** When the last poll was sent: a poll tells the director the actor is alive as a heartbeat does. */
  private lastPollAt = 0;
  private loopDone: Promise<void> | null = null;
  private tls: PerformOptions['tls'];
  /** The director's public key parsed once (a PEM parsed for each verify cost about twice the verify). */
  private verifier: { pem: string; key: crypto.KeyObject } | null = null;
  readonly capabilities: string[];
  /** Test hook: an in-path device altering what this actor serves as a target. */
  tamper: PerformOptions['tamper'];

  constructor(private readonly opts: ActorOptions) {
    this.capabilities = [...BASE_TYPES, ...(opts.allowHostCli ? ['host_cli'] : [])];
    this.tamper = opts.tamper;
    this.channel = new DirectorChannel({ director: opts.director, socketPath: opts.directorSocket, maxAnswerBytes: MAX_ANSWER_BYTES });
  }

  /** Work ids this actor is performing now. */
  get holding(): number[] {
    return [...this.running.keys()];
  }

  get nodeId(): number | null {
    return this.cred?.node_id ?? null;
  }

  private log(line: string) {
    (this.opts.log ?? ((l: string) => console.log(l)))(`[actor ${this.opts.name}] ${line}`);
  }

  /** One keep-alive agent per actor, destroyed on stop so no connection outlives it. */
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 4 });

  /** The calls with a credential go over the channel (actor/channel.ts) while the director takes it; the others, and all after a refusal, over HTTP. */
  private readonly channel: DirectorChannel;
  private useChannel = true;
  /** After the channel could not be opened, calls go over HTTP until then (a path that drops upgrades). */
  private channelRetryAt = 0;

  private async call<T>(path: string, body: unknown, auth = true, signal?: AbortSignal): Promise<T> {
    if (auth && this.cred && this.useChannel && Date.now() >= this.channelRetryAt) {
      let reply;
      try {
        reply = await this.channel.call(path, body, `Bearer ${this.cred.token}`);
      } catch (e) {
        if (e instanceof ChannelUnreachable) {
          // The director may be down (HTTP fails too, and the caller retries), or only upgrades fail.
          this.channelRetryAt = Date.now() + CHANNEL_RETRY_MS;
        } else if (e instanceof ChannelRefused) {
          if (e.status === 401) throw answered(path, 401, e.message);
          this.useChannel = false;
          this.log(`${e.message}; calling over HTTP`);
        } else {
          throw e instanceof ChannelDown ? new ActorError(`${path} failed: ${e.message}`) : e;
        }
      }
      if (reply) {
        if (reply.status >= 200 && reply.status < 300) return reply.body as T;
        const error = (reply.body as { error?: unknown } | null)?.error;
        throw answered(path, reply.status, typeof error === 'string' ? error : JSON.stringify(reply.body));
      }
    }
    return this.request(path, body, auth, signal, MAX_ANSWER_BYTES).then((buf) => {
      try {
        return JSON.parse(buf.toString('utf8')) as T;
      } catch {
        throw new ActorError(`${path} answered with something that is not JSON`);
      }
    });
  }

  /** A file-library entry of a work item, checked against the sha256 the signed payload names. */
  private async fetchFile(p: WorkPayload, fileId: number): Promise<Buffer> {
    const f = p.files?.find((x) => x.id === fileId);
    if (!f) throw new ActorError(`File ${fileId} is not part of this work.`);
    const bytes = await this.request(`/work/${p.work_id}/files/${fileId}`, { session: this.session }, true, undefined, MAX_WORK_FILE_BYTES);
    const sha = crypto.createHash('sha256').update(bytes).digest('hex');
    if (sha !== f.sha256.toLowerCase()) throw new ActorError(`File ${f.name} arrived from the director with another sha256 (${sha}).`);
    return bytes;
  }

  private request(path: string, body: unknown, auth: boolean, signal: AbortSignal | undefined, maxBytes: number): Promise<Buffer> {
    const url = new URL(`${this.opts.director}${ACTOR_API}${path}`);
    const payload = Buffer.from(JSON.stringify(body));
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': payload.length };
    if (auth && this.cred) headers.authorization = `Bearer ${this.cred.token}`;
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise<Buffer>((resolve, reject) => {
      const socket = this.opts.directorSocket ? { socketPath: this.opts.directorSocket } : {};
      const req = lib.request(url, { method: 'POST', headers, agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent, signal, timeout: 30_000, ...socket });
      req.on('timeout', () => req.destroy(new Error('the director did not answer in time')));
      req.on('error', reject);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) return void res.destroy(new ActorError(`${path} answered more than ${maxBytes} bytes`));
          chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () => {
          const data = Buffer.concat(chunks);
          const text = data.toString('utf8');
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) return reject(answered(path, status, errorOfAnswer(text)));
          resolve(data);
        });
      });
      req.end(payload);
    });
  }

  /** The saved credential if the director still takes it, else a registration with the bulk token. */
  private async signOn(): Promise<Credential> {
    const saved = this.readState();
    if (saved && saved.director === this.opts.director) {
      this.cred = saved;
      try {
        await this.call('/heartbeat', { session: this.session });
      } catch (e) {
        if ((e as { status?: number }).status !== 401) throw e;
        this.log('the saved credential was refused; registering again');
        this.cred = null;
      }
    }
    if (!this.cred) {
      if (!this.opts.bulkToken) throw new ActorError('No saved credential and no --token (bulk registration token) given.');
      const answer = await this.call<RegisterAnswer>(
        '/register',
        {
          bulk_token: this.opts.bulkToken,
          name: this.opts.name,
          version: ACTOR_VERSION,
          os: osText(),
          username: accountName(),
          addresses: [this.opts.address],
          capabilities: this.capabilities,
        },
        false,
      );
      this.cred = { ...answer, director: this.opts.director };
      this.writeState();
      this.log(`registered as actor ${answer.node_id} on ${this.opts.address}`);
    }
    return this.cred;
  }

  /**
   * Registers (or reuses the saved credential) and starts the heartbeat and the poll loop. A director that
   * cannot be reached yet (not listening, its socket not there, a proxy answering 502-504) is tried again,
   * 1 s later and then twice as long each time up to 30 s, saying so in the log: an actor started before
   * its director, or with it, waits for it. A refusal (a wrong token) ends the start at once.
   */
  async start(): Promise<void> {
    this.tls = makeTls();
    let cred: Credential | undefined;
    for (let wait = START_RETRY_FIRST_MS; !cred; wait = Math.min(wait * 2, START_RETRY_MAX_MS)) {
      try {
        cred = await this.signOn();
      } catch (e) {
        if (!directorUnreachable(e)) throw e;
        if (this.stopped) return;
        this.log(`the director ${this.opts.director} is not reachable (${(e as Error).message}); trying again in ${wait / 1000} s`);
        // Ends early when the actor stops; the wait's abort listener is removed either way.
        await delay(wait, undefined, { signal: this.pollAbort.signal }).catch(() => {});
        if (this.stopped) return;
      }
    }
    const hb = cred.heartbeat_ms;
    this.heartbeatTimer = setInterval(() => {
      // A poll sent within the interval already marked the actor alive (the director touches it on every
      // poll): with 50 actors, skipping that heartbeat halves the director's idle statements.
      if (Date.now() - this.lastPollAt < hb) return;
      this.call('/heartbeat', { session: this.session }).catch((e: Error) => this.log(`heartbeat failed: ${e.message}`));
    }, hb);
    this.heartbeatTimer.unref();
    await this.warmUp();
    this.loopDone = this.loop();
  }

  /**
   * Prepares for the first work before the first poll: the director's key parsed and a signature checked
   * once (crypto's internals load on first use), and a socket action and a port scan performed against itself (warm-up.ts).
   */
  private async warmUp(): Promise<void> {
    try {
      if (this.cred) crypto.verify(null, Buffer.from('warm-up'), this.signingKey(this.cred), Buffer.alloc(64));
      await warmUp(this.opts.address, { allowHostCli: false, tls: this.tls });
    } catch (e) {
      this.log(`warm-up failed (${(e as Error).message}); the first work will be slower`);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.pollAbort.abort();
    this.channel.close();
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    for (const r of this.running.values()) {
      r.abort.abort(STOPPED);
      await r.target?.close();
    }
    await this.loopDone?.catch(() => {});
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private readState(): Credential | null {
    if (!this.opts.stateFile || !fs.existsSync(this.opts.stateFile)) return null;
    try {
      return JSON.parse(fs.readFileSync(this.opts.stateFile, 'utf8')) as Credential;
    } catch {
      return null;
    }
  }

  private writeState() {
    if (!this.opts.stateFile || !this.cred) return;
    fs.writeFileSync(this.opts.stateFile, JSON.stringify(this.cred), { mode: 0o600 });
  }

  /** Before a poll: targets starting (their readiness rides on it), sources performing (their results do) and targets closing, each wait bounded. */
  private async beforePoll(): Promise<void> {
    if (this.performing.size) {
      await settledWithin([...this.performing.values()], RESULT_WAIT_MS);
      // A source still performing sends its result by /result when it is done.
      this.performing.clear();
    }
    if (this.starting.size) {
      await settledWithin([...this.starting.values()], START_WAIT_MS);
      // A target still starting sends its readiness by /ready when it is up.
      this.starting.clear();
    }
    if (this.closingServers.length) await settledWithin(this.closingServers.splice(0), 1000);
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        await this.beforePoll();
        this.lastPollAt = Date.now();
        const ready = [...this.pendingReady.values()];
        const evidence = [...this.pendingEvidence].map(([work_id, e]) => ({ work_id, evidence: e }));
        const results = [...this.pendingResults].map(([work_id, o]) => ({ work_id, ...o }));
        let answer: PollAnswer;
        try {
          answer = await this.call<PollAnswer>(
            '/poll',
            { session: this.session, holding: [...this.running.keys()], wait_ms: this.opts.pollWaitMs ?? 5000, ...(ready.length ? { ready } : {}), ...(evidence.length ? { evidence } : {}), ...(results.length ? { results } : {}) },
            true,
            this.pollAbort.signal,
          );
        } catch (e) {
          if ((e as { status?: number }).status === 400 && (ready.length || evidence.length || results.length)) this.reportByCalls();
          throw e;
        }
        for (const r of ready) this.pendingReady.delete(r.work_id);
        for (const r of evidence) this.pendingEvidence.delete(r.work_id);
        for (const r of results) this.pendingResults.delete(r.work_id);
        for (const r of answer.refused ?? []) this.log(`work ${r.work_id}: the director refused its report: ${r.error}`);
        failures = 0;
        const again = answer.abort.filter((id) => this.closing.has(id));
        for (const id of answer.abort) this.abort(id);
        for (const w of answer.work) this.accept(w);
        for (const t of answer.tasks ?? []) this.acceptTask(t);
        // Only work it is already closing: the director says so again until the evidence is in (the
        // work is held meanwhile); wait for that rather than ask again at once.
        if (!answer.work.length && !answer.tasks?.length && again.length && again.length === answer.abort.length) {
          await settledWithin(again.map((id) => this.closing.get(id)), 1000);
        }
      } catch (e) {
        if (this.stopped) return;
        const status = (e as { status?: number }).status;
        if (status === 401) {
          this.log(`the director refused this actor's credential: ${(e as Error).message}`);
          this.stopped = true;
          return;
        }
        failures++;
        if (failures === 1 || failures % 10 === 0) this.log(`poll failed (${(e as Error).message}); retrying`);
        await new Promise((r) => setTimeout(r, Math.min(250 * failures, 2000)));
      }
    }
  }

  private abort(id: number) {
    const r = this.running.get(id);
    if (!r || this.closing.has(id)) return;
    r.abort.abort(STOPPED); // a target's servers close on it
    const target = r.target;
    if (!target) {
      this.running.delete(id);
      return;
    }
    const evidence = boundedEvidence(target.evidence());
    if (this.reportsByPoll && JSON.stringify(evidence).length <= POLL_EVIDENCE_BYTES) {
      // The next poll carries what the target saw, and no longer holds the work.
      this.running.delete(id);
      this.pendingEvidence.set(id, evidence);
      if (r.closed) this.closingServers.push(r.closed);
      return;
    }
    // What the target saw reaches the director (once) before the work is let go (the job waits for it meanwhile).
    this.closing.set(
      id,
      this.send(`/work/${id}/evidence`, { session: this.session, evidence }).finally(() => {
        this.running.delete(id);
        this.closing.delete(id);
      }),
    );
  }

  /** The key the director signs work with, as a key object (parsed again only when the credential changes). */
  private signingKey(cred: Credential): crypto.KeyObject {
    if (this.verifier?.pem !== cred.signing_key) this.verifier = { pem: cred.signing_key, key: crypto.createPublicKey(cred.signing_key) };
    return this.verifier.key;
  }

  /** Checks the signature, the addressee and the expiry before doing anything. */
  private verify(w: SignedWork): WorkPayload | null {
    if (!this.cred) return null;
    const ok = crypto.verify(null, Buffer.from(w.payload), this.signingKey(this.cred), Buffer.from(w.signature, 'base64'));
    if (!ok) {
      this.log(`refused work ${w.id}: bad signature`);
      return null;
    }
    const p = JSON.parse(w.payload) as WorkPayload;
    if (p.work_id !== w.id || p.node_id !== this.cred.node_id || Date.parse(p.expires_at) < Date.now()) {
      this.log(`refused work ${w.id}: not for this actor or expired`);
      return null;
    }
    if (p.local_address !== this.opts.address) {
      this.log(`refused work ${w.id}: address ${p.local_address} is not this actor's`);
      return null;
    }
    // Nothing targets an address outside the ones the other actor reported.
    if (p.peer_address !== undefined && !(net.isIP(p.peer_address) && p.peer_address !== this.opts.address && (p.peer_addresses ?? []).includes(p.peer_address))) {
      this.log(`refused work ${w.id}: ${p.peer_address} is not an address the other actor reported`);
      return null;
    }
    return p;
  }

  private accept(w: SignedWork) {
    if (this.running.has(w.id)) return;
    const p = this.verify(w);
    if (!p) {
      void this.report(w.id, { outcome: 'errored', blocked: null, message: 'The actor refused the work: its signature, addressee, expiry or addresses did not check out.', evidence: {} });
      return;
    }
    const abort = new AbortController();
    const entry: RunningWork = { abort };
    this.running.set(w.id, entry);
    const timer = setTimeout(() => abort.abort(TIMED_OUT), Math.min(Math.max(p.timeout_ms, 1000), 300_000));
    const perf: PerformOptions = {
      allowHostCli: this.opts.allowHostCli === true,
      tls: this.tls,
      tamper: this.tamper,
      fetchFile: (fileId) => this.fetchFile(p, fileId),
    };
    const run = async () => {
      if (p.role === 'target') {
        try {
          entry.target = await startTarget(p, perf);
        } catch (e) {
          this.running.delete(w.id);
          clearTimeout(timer);
          const incompatible = e instanceof Incompatible;
          await this.report(w.id, { outcome: incompatible ? 'incompatible' : 'errored', blocked: null, message: (e as Error).message, evidence: {} });
          return;
        }
        if (abort.signal.aborted) return void entry.target.close();
        abort.signal.addEventListener(
          'abort',
          () => {
            // Told to stop (or timed out): the servers close, and the timeout has nothing left to do.
            clearTimeout(timer);
            entry.closed = entry.target?.close().catch(() => {});
          },
          { once: true },
        );
        const ready = { port_map: entry.target.port_map, port_failures: entry.target.port_failures, ...(entry.target.login ? { login: entry.target.login } : {}) };
        // The poll waiting for this start carries the readiness; after its wait, /ready does.
        if (this.reportsByPoll && this.starting.has(w.id)) this.pendingReady.set(w.id, { work_id: w.id, ...ready });
        else await this.send(`/work/${w.id}/ready`, { session: this.session, ...ready });
        return;
      }
      let outcome: Outcome;
      try {
        outcome = await runSource(p, abort.signal, perf);
      } catch (e) {
        if (abort.signal.aborted && !this.running.has(w.id)) return; // aborted by the director
        const incompatible = e instanceof Incompatible;
        outcome = { outcome: incompatible ? 'incompatible' : 'errored', blocked: null, message: abort.signal.aborted ? 'The action timed out on the actor.' : (e as Error).message, evidence: {} };
      } finally {
        clearTimeout(timer);
      }
      this.running.delete(w.id);
      // The poll waiting for this work carries its result; after its wait, /result does.
      const result = bounded(outcome);
      if (this.reportsByPoll && this.performing.has(w.id) && JSON.stringify(result).length <= POLL_EVIDENCE_BYTES) this.pendingResults.set(w.id, result);
      else await this.send(`/work/${w.id}/result`, { session: this.session, ...result });
    };
    const done = run().catch((e: Error) => this.log(`work ${w.id} failed: ${e.message}`));
    if (p.role === 'target') this.starting.set(w.id, done);
    else this.performing.set(w.id, done);
  }

  /** The director refused reports in a poll (400: an older director): they go by /ready, /evidence and /result from now on. */
  private reportByCalls(): void {
    if (!this.reportsByPoll) return;
    this.reportsByPoll = false;
    this.log('the director takes no reports in polls; sending them by /ready, /evidence and /result');
    for (const [id, { work_id: _, ...ready }] of this.pendingReady) void this.send(`/work/${id}/ready`, { session: this.session, ...ready });
    for (const [id, evidence] of this.pendingEvidence) void this.send(`/work/${id}/evidence`, { session: this.session, evidence });
    for (const [id, result] of this.pendingResults) void this.send(`/work/${id}/result`, { session: this.session, ...result });
    this.pendingReady.clear();
    this.pendingEvidence.clear();
    this.pendingResults.clear();
  }

  /**
   * A task outside jobs (JOB-061): install this host's dependencies or report the version. Checked
   * like work (signature, addressee, expiry), performed beside any running work, reported when done.
   */
  private acceptTask(t: SignedTask) {
    if (!this.cred || this.tasks.has(t.id)) return;
    const ok = crypto.verify(null, Buffer.from(t.payload), this.signingKey(this.cred), Buffer.from(t.signature, 'base64'));
    const p = ok ? (JSON.parse(t.payload) as ActorTaskPayload) : null;
    if (!p || p.task_id !== t.id || p.node_id !== this.cred.node_id || Date.parse(p.expires_at) < Date.now()) {
      this.log(`refused task ${t.id}: bad signature, not for this actor or expired`);
      void this.send(`/tasks/${t.id}/result`, { session: this.session, ok: false, message: 'The actor refused the task: its signature, addressee or expiry did not check out.', version: ACTOR_VERSION, os: osText(), dependencies: [] });
      return;
    }
    this.tasks.add(t.id);
    const run = async () => {
      if (p.kind === 'version_check') return { ok: true, message: `Actor ${this.opts.name} runs version ${ACTOR_VERSION} on ${osText()}.`, dependencies: [] };
      this.log('installing dependencies');
      return installDependencies({ install: this.opts.installDeps !== false, log: (l) => this.log(l), ...this.opts.dependencyOptions });
    };
    void run()
      .catch((e: Error) => ({ ok: false, message: e.message, dependencies: [] }))
      .then((r) => this.send(`/tasks/${t.id}/result`, { session: this.session, ok: r.ok, message: r.message.slice(0, 2000), version: ACTOR_VERSION, os: osText(), dependencies: r.dependencies }))
      .finally(() => this.tasks.delete(t.id));
  }

  private async report(id: number, o: Outcome) {
    await this.send(`/work/${id}/result`, { session: this.session, ...bounded(o) });
  }

  /** Posts with retries (the director may be restarting); 4xx answers are final. */
  private async send(path: string, body: unknown) {
    for (let attempt = 0; attempt < 60 && !this.stopped; attempt++) {
      try {
        await this.call(path, body);
        return;
      } catch (e) {
        const status = (e as { status?: number }).status ?? 0;
        if (status >= 400 && status < 500) {
          this.log(`${path} refused: ${(e as Error).message}`);
          return;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }
}

interface RunningWork {
  abort: AbortController;
  target?: TargetHandle;
  /** A target's servers closing (set when it is told to abort). */
  closed?: Promise<void>;
}

/** A target's readiness as a poll carries it. */
interface PollReady {
  work_id: number;
  port_map: Record<string, number>;
  port_failures: Record<string, string>;
  login?: string;
}

/**
 * Why work's signal aborted (its `reason`). Given, not left to AbortController: the default reason is a
 * DOMException, whose stack capture was a visible share of an actor's CPU (one per target action).
 */
const STOPPED = new Error('The director told the actor to stop this work.');
const TIMED_OUT = new Error('The action timed out on the actor.');

/** Waits for the promises to settle, at most ms (the timer is cleared when they settle first: no wake-up for nothing later). */
async function settledWithin(promises: readonly (Promise<unknown> | undefined)[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(promises), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/** The first wait before trying an unreachable director again at start, and the longest. */
const START_RETRY_FIRST_MS = 1_000;
const START_RETRY_MAX_MS = 30_000;

/** Whether an error says the director could not be reached (worth trying again), not that it refused. */
function directorUnreachable(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && ['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', 'EPIPE'].includes(code)) return true;
  const status = (e as { status?: unknown }).status;
  if (typeof status === 'number') return status >= 502 && status <= 504;
  return e instanceof Error && e.message === 'the director did not answer in time';
}

/** How long calls go over HTTP after the channel could not be opened, before it is tried again. */
const CHANNEL_RETRY_MS = 60_000;

/** The longest a poll waits for a target's servers to start, to carry its readiness. */
const START_WAIT_MS = 10_000;
/** The longest a poll waits for a source performing its work, to carry its result (a director's abort waits as long). */
const RESULT_WAIT_MS = 2_000;
/** Evidence (or a result) larger than this goes by /work/{id}/evidence (/result), not in a poll. */
const POLL_EVIDENCE_BYTES = 64 * 1024;

const osText = () => `${os.type()} ${os.release()} ${os.arch()}`;
/** The account this actor runs as (MON-042 username), or '' when the host does not say. */
function accountName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return '';
  }
}

/** A self-signed certificate for https websites, made with openssl when it is installed. */
function makeTls(): PerformOptions['tls'] {
  try {
    const dir = fs.mkdtempSync(`${os.tmpdir()}/vigil-actor-tls-`);
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '30', '-subj', '/CN=vigil-actor', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`], { stdio: 'ignore', timeout: 10_000 });
    const tls = { key: fs.readFileSync(`${dir}/key.pem`, 'utf8'), cert: fs.readFileSync(`${dir}/cert.pem`, 'utf8') };
    fs.rmSync(dir, { recursive: true, force: true });
    return tls;
  } catch {
    return undefined;
  }
}

/** An outcome within the director's limits: its message at most 2,000 characters, its evidence bounded. */
function bounded(o: Outcome): Outcome {
  const message = o.message && o.message.length > 2000 ? `${o.message.slice(0, 1999)}…` : o.message;
  return { outcome: o.outcome, blocked: o.blocked, message, evidence: boundedEvidence(o.evidence) };
}

/** Evidence within the director's size limit (an excerpt of its JSON when larger). */
function boundedEvidence(evidence: Record<string, unknown>): Record<string, unknown> {
  const json = JSON.stringify(evidence);
  return json.length > MAX_RESULT_BYTES - 8 * 1024 ? { truncated: true, excerpt: json.slice(0, MAX_RESULT_BYTES / 2) } : evidence;
}
